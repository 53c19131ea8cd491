// Pick the fastest device with the shared device helper, describe it, and size a launch from it.
#include <cuda_runtime.h>

#include "common/helper_device.h"
#include "common/helper_errors.h"

__global__ void touch(int *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] = i;
}

int main() {
  int device = fastestDevice();
  if (device < 0) {
    fprintf(stderr, "no CUDA device\n");
    return 1;
  }
  checkCudaErrors(cudaSetDevice(device));
  describeDevice(device);
  cudaDeviceProp prop;
  checkCudaErrors(cudaGetDeviceProperties(&prop, device));
  const int n = 1 << 22;
  int *x;
  checkCudaErrors(cudaMalloc(&x, n * sizeof(int)));
  touch<<<prop.multiProcessorCount * 4, 256>>>(x, n);
  getLastCudaError("touch");
  checkCudaErrors(cudaDeviceSynchronize());
  checkCudaErrors(cudaFree(x));
  return 0;
}
