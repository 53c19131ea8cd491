#include <cuda_runtime.h>
k <<< g, b >>> (d);
