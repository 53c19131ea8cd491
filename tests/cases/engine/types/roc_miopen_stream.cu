#include <cudnn.h>
#include <cuda_runtime.h>
void bind(cudnnHandle_t h) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudnnSetStream(h, s);
}
