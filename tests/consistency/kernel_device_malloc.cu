// Scratch space allocated per block by the device runtime API, freed before exit.
// nvcc: -rdc=true
#include <cstdio>
#include <cuda_runtime.h>

__global__ void with_scratch(int *out, int n) {
  __shared__ int *scratch;
  if (threadIdx.x == 0) {
    if (cudaMalloc(reinterpret_cast<void **>(&scratch), n * sizeof(int)) != cudaSuccess)
      scratch = nullptr;
  }
  __syncthreads();
  if (scratch == nullptr) return;
  scratch[threadIdx.x] = threadIdx.x * 2;
  __syncthreads();
  out[blockIdx.x * n + threadIdx.x] = scratch[n - 1 - threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) cudaFree(scratch);
}

int main() {
  int *out;
  cudaMallocManaged(&out, 4 * 64 * sizeof(int));
  with_scratch<<<4, 64>>>(out, 64);
  cudaDeviceSynchronize();
  printf("%d\n", out[0]);
  return 0;
}
