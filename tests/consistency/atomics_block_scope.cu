// Per-block histogram with block-scope atomics, merged with device-scope atomics.
#include <cstdio>
#include <cuda_runtime.h>

#define BINS 16

__global__ void histogram(const unsigned char *data, int n, unsigned *bins) {
  __shared__ unsigned local[BINS];
  if (threadIdx.x < BINS) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd_block(&local[data[i] % BINS], 1u);
  __syncthreads();
  if (threadIdx.x < BINS) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

int main() {
  const int n = 1 << 12;
  unsigned char *data;
  unsigned *bins;
  cudaMallocManaged(&data, n);
  cudaMallocManaged(&bins, BINS * sizeof(unsigned));
  for (int i = 0; i < n; ++i) data[i] = (unsigned char)(i * 7);
  for (int b = 0; b < BINS; ++b) bins[b] = 0;
  histogram<<<4, 128>>>(data, n, bins);
  cudaDeviceSynchronize();
  printf("%u\n", bins[0]);
  return 0;
}
