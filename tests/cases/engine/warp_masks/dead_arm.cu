// a call in an arm HIP does not compile keeps its mask; the live one is widened
#include <cuda_runtime.h>
__device__ int f(int v) {
#ifdef __CUDA_ARCH__
  return __shfl_xor_sync(0xffffffff, v, 1);
#else
  return __shfl_down_sync(0xffffffff, v, 1);
#endif
}
