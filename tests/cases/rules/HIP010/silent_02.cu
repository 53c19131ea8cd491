#include <cuda_runtime.h>
// ROCm 7.0 enables the warp builtins by default: no macro is needed
__global__ void k(int v, unsigned long long m){ v = __shfl_down_sync(m, v, 16); }
