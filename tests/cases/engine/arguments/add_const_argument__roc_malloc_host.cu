#include <cuda_runtime.h>
void pinned(size_t bytes) {
  float* a;
  cudaMallocHost(&a, bytes);
  cudaFreeHost(a);
}
