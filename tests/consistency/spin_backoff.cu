// A device-side spin lock with exponential back-off through __nanosleep.
#include <cstdio>
#include <cuda_runtime.h>

__device__ void lock(int *mutex) {
  unsigned ns = 8;
  while (atomicCAS(mutex, 0, 1) != 0) {
    __nanosleep(ns);
    if (ns < 256) ns *= 2;
  }
}

__device__ void unlock(int *mutex) { atomicExch(mutex, 0); }

__global__ void critical(int *mutex, int *total) {
  if (threadIdx.x == 0) {
    lock(mutex);
    *total += 1;
    unlock(mutex);
  }
}

int main() {
  int *mutex, *total;
  cudaMallocManaged(&mutex, sizeof(int));
  cudaMallocManaged(&total, sizeof(int));
  *mutex = 0;
  *total = 0;
  critical<<<32, 32>>>(mutex, total);
  cudaDeviceSynchronize();
  printf("%d\n", *total);
  return 0;
}
