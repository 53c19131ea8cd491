// masks typed 32-bit that are not the full warp: HIP's static_assert rejects them
#include <cuda_runtime.h>
__device__ int f(int v, unsigned m, unsigned long long wide) {
  unsigned half = 0x0000ffffu;
  v += __shfl_sync(m, v, 0);
  v += __shfl_xor_sync(half, v, 1);
  v += __shfl_down_sync(0xffff, v, 1);
  v += __shfl_up_sync((1u << 16) - 1, v, 1);
  v += __shfl_sync((unsigned)wide, v, 0);
  v += __shfl_sync(wide, v, 0);            // 64-bit: fine
  v += __shfl_sync(__activemask(), v, 0);  // HIP's __activemask is 64-bit: fine
  return v;
}
