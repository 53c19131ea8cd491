#include <cuda_runtime.h>
void make() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaStreamDestroy(s);
}
