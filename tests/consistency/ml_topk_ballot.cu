// Top-k selection step: warp ballots count candidates above a threshold (sampling kernels).
#include <cuda_runtime.h>

__global__ void count_above(const float* logits, float thresh, int* count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool above = i < n && logits[i] > thresh;
  unsigned long long votes = __ballot_sync(~0u, above);
  if (threadIdx.x % 32 == 0) atomicAdd(count, __popcll(votes));
  if (__all_sync(0xffffffff, !above) && threadIdx.x == 0) atomicAdd(count, 0);
}

int main() {
  float* l;
  int* c;
  cudaMalloc(&l, 4096 * sizeof(float));
  cudaMalloc(&c, sizeof(int));
  count_above<<<16, 256>>>(l, 0.5f, c, 4096);
  cudaDeviceSynchronize();
  cudaFree(l);
  cudaFree(c);
  return 0;
}
