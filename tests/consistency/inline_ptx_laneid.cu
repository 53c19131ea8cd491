// Read the lane id and the SM id with inline PTX.
#include <cstdio>
#include <cuda_runtime.h>

__device__ unsigned lane_id() {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

__global__ void where(unsigned *out) {
  unsigned sm;
  asm("mov.u32 %0, %%smid;" : "=r"(sm));
  out[threadIdx.x] = sm * 100 + lane_id();
}

int main() {
  unsigned *out;
  cudaMallocManaged(&out, 64 * sizeof(unsigned));
  where<<<1, 64>>>(out);
  cudaDeviceSynchronize();
  printf("%u\n", out[33]);
  return 0;
}
