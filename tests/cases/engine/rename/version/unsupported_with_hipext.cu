#include <cuda_runtime.h>
cuGreenCtxCreate(&c, d, dev, 0);
