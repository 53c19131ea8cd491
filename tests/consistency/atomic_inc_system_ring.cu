// A wrap-around slot counter in mapped memory advanced with atomicInc_system (host and GPU see it).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void claim_slots(unsigned int *cursor, unsigned int *owner, unsigned int slots) {
  unsigned int slot = atomicInc_system(cursor, slots - 1);
  owner[slot] = blockIdx.x * blockDim.x + threadIdx.x;
}

int main() {
  const unsigned int slots = 64;
  unsigned int *cursor, *owner;
  cudaMallocManaged(&cursor, sizeof(unsigned int));
  cudaMallocManaged(&owner, slots * sizeof(unsigned int));
  *cursor = 0;
  claim_slots<<<4, 32>>>(cursor, owner, slots);
  cudaDeviceSynchronize();
  printf("cursor %u, slot 0 owned by %u\n", *cursor, owner[0]);
  cudaFree(cursor);
  cudaFree(owner);
  return 0;
}
