// Require a compute capability through the shared device helper before launching a tensor-sized job.
#include <cuda_runtime.h>

#include "common/helper_device.h"

__global__ void fill(float *x, int n, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = v;
}

int main() {
  int device = deviceWithCapability(7, 0);
  if (device < 0) return 1;
  cudaSetDevice(device);
  printf("clock %d kHz\n", deviceClockKHz(device));
  const int n = 1 << 16;
  float *x;
  cudaMalloc(&x, n * sizeof(float));
  fill<<<n / 256, 256>>>(x, n, 1.0f);
  cudaDeviceSynchronize();
  cudaFree(x);
  return 0;
}
