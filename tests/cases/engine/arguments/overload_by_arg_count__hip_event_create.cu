#include <cuda_runtime.h>
void events() {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop, cudaEventBlockingSync | cudaEventDisableTiming);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
}
