#include <cuda_runtime.h>
#define FULL_MASK 0xffffffff
__global__ void k(float* x) {
  float v = x[threadIdx.x];
  v += __shfl_xor_sync(FULL_MASK, v, 16);
  v += __shfl_down_sync(~0u, v, 8);
  x[threadIdx.x] = v;
}
