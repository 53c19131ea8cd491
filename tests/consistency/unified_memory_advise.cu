// Managed memory touched by host and device, with cudaDeviceSynchronize in between.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void increment(int *data, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    data[i] += 1;
}

int main() {
  const int n = 1 << 18;
  int *data;
  cudaMallocManaged(&data, n * sizeof(int), cudaMemAttachGlobal);
  for (int i = 0; i < n; ++i) data[i] = i;
  int device = 0;
  cudaGetDevice(&device);
  increment<<<64, 256>>>(data, n);
  cudaDeviceSynchronize();
  long long sum = 0;
  for (int i = 0; i < n; ++i) sum += data[i];
  printf("device %d, sum %lld\n", device, sum);
  cudaFree(data);
  return 0;
}
