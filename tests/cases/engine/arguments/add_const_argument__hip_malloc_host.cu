#include <cuda_runtime.h>
void pinned(size_t bytes) {
  float* a;
  double* b;
  cudaMallocHost(&a, bytes);
  cudaMallocHost((void**)&b,
                 bytes);
  cudaMallocHost(&a, bytes, cudaHostAllocMapped);
  cudaFreeHost(a);
  cudaFreeHost(b);
}
