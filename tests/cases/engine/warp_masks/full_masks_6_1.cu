// ROCm 6.1 has no *_sync intrinsics: the masks stay (HIP002 on the calls, HIP103 on the masks)
#include <cuda_runtime.h>
#define FULL_MASK 0xffffffff
#define ALL_LANES (~0u)
constexpr unsigned kAll = 0xFFFFFFFFu;
__device__ float reduce(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL_MASK, v, o);
  v += __shfl_down_sync(0xFFFFFFFFu, v, 1);
  v += __shfl_up_sync((unsigned)-1, v, 1);
  v += __shfl_sync(kAll, v, 0);
  v += __shfl_sync(ALL_LANES, v, 1);
  v += __shfl_sync(-1, v, 2);
  return v;
}
__device__ int vote(int p) {
  unsigned long long b = __ballot_sync(~0u, p);
  return (int)b + __all_sync((0xffffffff), p) + __any_sync((unsigned int)-1, p);
}
