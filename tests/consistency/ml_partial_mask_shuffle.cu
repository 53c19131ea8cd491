// Half-warp reductions with a computed 32-bit mask (16-lane groups), as grouped-query kernels do.
#include <cuda_runtime.h>

__global__ void group_sum(const float* x, float* y) {
  unsigned mask = 0xffffu << (threadIdx.x & 16);
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 8; o > 0; o >>= 1) v += __shfl_xor_sync(mask, v, o, 16);
  if ((threadIdx.x & 15) == 0) y[(blockIdx.x * blockDim.x + threadIdx.x) / 16] = v;
}

int main() {
  float *x, *y;
  cudaMalloc(&x, 1024 * sizeof(float));
  cudaMalloc(&y, 64 * sizeof(float));
  group_sum<<<4, 256>>>(x, y);
  cudaDeviceSynchronize();
  cudaFree(x);
  cudaFree(y);
  return 0;
}
