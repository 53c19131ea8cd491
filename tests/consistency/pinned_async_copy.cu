// Overlap copies and compute in chunks with pinned host memory and two streams.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add_one(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.f;
}

int main() {
  const int n = 1 << 20, chunks = 4, chunk = n / chunks;
  float *host, *dev;
  cudaMallocHost(&host, n * sizeof(float));
  cudaMalloc(&dev, n * sizeof(float));
  for (int i = 0; i < n; ++i) host[i] = 0.f;
  cudaStream_t streams[2];
  for (auto &s : streams) cudaStreamCreate(&s);
  for (int c = 0; c < chunks; ++c) {
    cudaStream_t s = streams[c % 2];
    size_t off = size_t(c) * chunk;
    cudaMemcpyAsync(dev + off, host + off, chunk * sizeof(float), cudaMemcpyHostToDevice, s);
    add_one<<<chunk / 256, 256, 0, s>>>(dev + off, chunk);
    cudaMemcpyAsync(host + off, dev + off, chunk * sizeof(float), cudaMemcpyDeviceToHost, s);
  }
  cudaDeviceSynchronize();
  printf("%.1f\n", host[n - 1]);
  for (auto &s : streams) cudaStreamDestroy(s);
  cudaFreeHost(host);
  cudaFree(dev);
  return 0;
}
