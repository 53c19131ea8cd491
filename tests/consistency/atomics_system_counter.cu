// A ring-buffer index shared with the host through system-scope atomics.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void produce(unsigned *head, int *ring, unsigned size) {
  unsigned slot = atomicInc_system(head, size - 1);
  ring[slot] = blockIdx.x * blockDim.x + threadIdx.x;
}

int main() {
  unsigned *head;
  int *ring;
  cudaMallocManaged(&head, sizeof(unsigned));
  cudaMallocManaged(&ring, 64 * sizeof(int));
  *head = 0;
  produce<<<2, 32>>>(head, ring, 64);
  cudaDeviceSynchronize();
  printf("head %u\n", *head);
  return 0;
}
