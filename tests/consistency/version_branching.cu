// Use the stream-ordered allocator on CUDA 11.2+, plain cudaMalloc before that.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void iota(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = i;
}

int main() {
  const int n = 4096;
  cudaStream_t s;
  cudaStreamCreate(&s);
  int *d = nullptr;
#if CUDART_VERSION >= 11020
  cudaMallocAsync(reinterpret_cast<void **>(&d), n * sizeof(int), s);
#else
  cudaMalloc(&d, n * sizeof(int));
#endif
  iota<<<n / 256, 256, 0, s>>>(d, n);
  int last = 0;
  cudaMemcpyAsync(&last, d + n - 1, sizeof(int), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
#if CUDART_VERSION >= 11020
  cudaFreeAsync(d, s);
#else
  cudaFree(d);
#endif
  cudaStreamDestroy(s);
  printf("%d\n", last);
  return 0;
}
