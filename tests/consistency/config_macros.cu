// Build-time switches named like CUDA's, tested but defined only on the command line.
#include <cstdio>
#include <cuda_runtime.h>

#ifndef CUDA_BLOCK_SIZE
#define CUDA_BLOCK_SIZE 128
#endif

__global__ void square(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * x[i];
}

int main() {
  const int n = 1000;
  float *x;
  cudaMallocManaged(&x, n * sizeof(float));
  for (int i = 0; i < n; ++i) x[i] = float(i);
#ifdef CUDA_USE_GRAPHS
  printf("graphs requested but not used in this build\n");
#endif
#if defined(CUDA_VERBOSE_LAUNCH) && CUDA_VERBOSE_LAUNCH > 1
  printf("launching %d blocks\n", (n + CUDA_BLOCK_SIZE - 1) / CUDA_BLOCK_SIZE);
#endif
  square<<<(n + CUDA_BLOCK_SIZE - 1) / CUDA_BLOCK_SIZE, CUDA_BLOCK_SIZE>>>(x, n);
  cudaDeviceSynchronize();
  printf("%.0f\n", x[n - 1]);
  return 0;
}
