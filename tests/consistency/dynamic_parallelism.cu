// Adaptive refinement: a parent kernel launches a child grid per coarse cell that needs it.
// nvcc: -rdc=true
#include <cstdio>
#include <cuda_runtime.h>

__global__ void refine(float *cell, int fine) {
  int i = threadIdx.x;
  if (i < fine) cell[i] *= 0.5f;
}

__global__ void coarse(float *grid, const int *needs, int cells, int fine) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cells && needs[c]) {
    refine<<<1, fine>>>(grid + c * fine, fine);
  }
  if (cudaGetLastError() != cudaSuccess) printf("launch failed in cell %d\n", c);
}

int main() {
  const int cells = 64, fine = 32;
  float *grid;
  int *needs;
  cudaMallocManaged(&grid, cells * fine * sizeof(float));
  cudaMallocManaged(&needs, cells * sizeof(int));
  for (int c = 0; c < cells; ++c) needs[c] = c % 2;
  coarse<<<1, cells>>>(grid, needs, cells, fine);
  cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
