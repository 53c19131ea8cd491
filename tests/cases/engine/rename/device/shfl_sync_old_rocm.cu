#include <cuda_runtime.h>
__device__ int f(int v) { return __shfl_xor_sync(0xffffffff, v, 1); }
