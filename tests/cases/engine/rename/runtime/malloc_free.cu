#include <cuda_runtime.h>
void f(float* p) {
  cudaMalloc(&p, 16);
  cudaFree(p);
}
