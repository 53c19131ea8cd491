#include <cuda_runtime.h>
__device__ void f() { __threadfence(); }
