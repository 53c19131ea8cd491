#include <cuda_runtime.h>
__global__ void k(int* p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __syncthreads();
  atomicAdd(p, i);
}
