#include <cuda_runtime.h>
// CUDA's arm needs HIP_ENABLE_WARP_SYNC_BUILTINS on ROCm 6.3: HIP keeps the legacy fallback
#if CUDART_VERSION >= 9000
#define WARP_SHFL_DOWN(v, d) __shfl_down_sync(0xffffffffu, (v), (d))
#else
#define WARP_SHFL_DOWN(v, d) __shfl_down((v), (d))
#endif
__global__ void k(float *x) { x[0] = WARP_SHFL_DOWN(x[0], 1); }
