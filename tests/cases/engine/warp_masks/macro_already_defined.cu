// the project defines the builtins' macro itself: it is not defined again
#define HIP_ENABLE_WARP_SYNC_BUILTINS 1
#include <cuda_runtime.h>
__device__ int f(int v) { return __shfl_xor_sync(0xffffffff, v, 1); }
