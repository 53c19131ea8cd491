// Block-strided copy and tile sums whose last block is partial: min(rem, blockDim.x) active threads.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void copy_tiles(const float *src, float *dst, int n) {
  int start = blockIdx.x * blockDim.x;
  int rem = n - start;
  int active = min(rem, blockDim.x);
  if (threadIdx.x < active) dst[start + threadIdx.x] = src[start + threadIdx.x];
}

__global__ void tile_sums(const float *src, float *sums, unsigned int n) {
  extern __shared__ float tile[];
  unsigned int start = blockIdx.x * blockDim.x;
  unsigned int rem = n - start;
  unsigned int count = min(rem, blockDim.x);
  tile[threadIdx.x] = threadIdx.x < count ? src[start + threadIdx.x] : 0.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (unsigned int i = 0; i < count; ++i) s += tile[i];
    sums[blockIdx.x] = s;
  }
}

int main() {
  const int n = 1000, block = 256, blocks = (n + block - 1) / block;
  float *src, *dst, *sums;
  cudaMallocManaged(&src, n * sizeof(float));
  cudaMallocManaged(&dst, n * sizeof(float));
  cudaMallocManaged(&sums, blocks * sizeof(float));
  for (int i = 0; i < n; ++i) src[i] = 1.0f;
  copy_tiles<<<blocks, block>>>(src, dst, n);
  tile_sums<<<blocks, block, block * sizeof(float)>>>(src, sums, n);
  cudaDeviceSynchronize();
  printf("%.0f %.0f\n", dst[n - 1], sums[blocks - 1]);
  cudaFree(src);
  cudaFree(dst);
  cudaFree(sums);
  return 0;
}
