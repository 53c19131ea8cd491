// Driver-API buffers with runtime kernels: both error helpers, CUresult and cudaError_t checks.
#include <cuda.h>
#include <cuda_runtime.h>
#include <vector>

#include "common/helper_errors.h"
#include "common/helper_driver.h"

__global__ void ramp(float *x, int n, float step) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = step * i;
}

int main() {
  const int n = 4096;
  CUdevice device;
  CUcontext ctx = driverContext(7, &device);
  printf("free before: %zu MiB\n", freeDeviceMemory() >> 20);
  CUdeviceptr buffer;
  checkCudaErrors(cuMemAlloc(&buffer, n * sizeof(float)));
  ramp<<<n / 256, 256>>>(reinterpret_cast<float *>(buffer), n, 0.5f);
  checkCudaErrors(cudaGetLastError());
  checkCudaErrors(cudaDeviceSynchronize());
  std::vector<float> tail(16);
  // the last 16 elements: CUdeviceptr is an integer, offsets are in bytes
  CUdeviceptr last = buffer + (n - 16) * sizeof(float);
  checkCudaErrors(cuMemcpyDtoH(tail.data(), last, tail.size() * sizeof(float)));
  printf("x[n-1] = %.1f\n", tail.back());
  checkCudaErrors(cuMemFree(buffer));
  checkCuErrors(cuDevicePrimaryCtxRelease(device));
  (void)ctx;
  return 0;
}
