#include <cuda_runtime.h>
__device__ int f(int v) { return __shfl_down_sync(0xffffffff, v, 1); }
