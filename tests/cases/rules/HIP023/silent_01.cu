#include <cuda_runtime.h>
// ROCm 6.1 has no *_sync intrinsics: nothing to widen (HIP002, HIP103 speak)
__global__ void k(float* x) { x[0] += __shfl_xor_sync(0xffffffff, x[0], 16); }
