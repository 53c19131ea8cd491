// Count positive values per warp with __ballot_sync and __popc.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void count_positive(const int *x, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned active = __activemask();
  unsigned votes = __ballot_sync(active, i < n && x[i] > 0);
  if ((threadIdx.x % 32) == 0) atomicAdd(count, __popc(votes));
}

int main() {
  const int n = 1024;
  int *x, *count;
  cudaMallocManaged(&x, n * sizeof(int));
  cudaMallocManaged(&count, sizeof(int));
  for (int i = 0; i < n; ++i) x[i] = (i % 3) - 1;
  *count = 0;
  count_positive<<<n / 128, 128>>>(x, count, n);
  cudaDeviceSynchronize();
  printf("%d positive\n", *count);
  return 0;
}
