#include <cuda_runtime.h>
void f(){ cuGreenCtxCreate(&c, d, dev, 0); }
