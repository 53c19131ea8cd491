// Zero-copy: the kernel reads and writes mapped pinned host memory through its device pointer.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void increment(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

int main() {
  const int n = 1 << 12;
  cudaSetDeviceFlags(cudaDeviceMapHost);
  float *host = nullptr, *mapped = nullptr;
  cudaHostAlloc(&host, n * sizeof(float), cudaHostAllocMapped);
  for (int i = 0; i < n; ++i) host[i] = float(i);
  cudaHostGetDevicePointer(&mapped, host, 0);
  increment<<<n / 256, 256>>>(mapped, n);
  cudaDeviceSynchronize();
  printf("%.0f\n", host[n - 1]);
  cudaFreeHost(host);
  return 0;
}
