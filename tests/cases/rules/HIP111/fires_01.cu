#include <cuda_runtime.h>
__global__ void k(float *x) {
  float *t;
  cudaMalloc(&t, 4);
  cudaDeviceSynchronize();
}
