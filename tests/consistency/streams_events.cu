// Two streams: a producer and a consumer ordered by an event; timing with events.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(float *x, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = v;
}

__global__ void scale(float *x, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= f;
}

int main() {
  const int n = 1 << 16;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaStream_t producer, consumer;
  cudaStreamCreateWithFlags(&producer, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&consumer, cudaStreamNonBlocking);
  cudaEvent_t ready, start, stop;
  cudaEventCreateWithFlags(&ready, cudaEventDisableTiming);
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, producer);
  fill<<<n / 256, 256, 0, producer>>>(d, 2.0f, n);
  cudaEventRecord(ready, producer);
  cudaStreamWaitEvent(consumer, ready, 0);
  scale<<<n / 256, 256, 0, consumer>>>(d, 3.0f, n);
  cudaEventRecord(stop, consumer);
  cudaEventSynchronize(stop);
  float ms = 0.f;
  cudaEventElapsedTime(&ms, start, stop);
  printf("%.3f ms\n", ms);
  cudaEventDestroy(ready);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(producer);
  cudaStreamDestroy(consumer);
  cudaFree(d);
  return 0;
}
