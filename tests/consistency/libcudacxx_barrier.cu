// A block-wide split arrive/wait barrier from libcu++ (cuda::barrier).
#include <cstdio>
#include <cuda/barrier>

__global__ void phases(int *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  out[threadIdx.x] = threadIdx.x;
  auto token = bar.arrive();
  bar.wait(std::move(token));
  out[threadIdx.x] += out[(threadIdx.x + 1) % blockDim.x];
}

int main() {
  int *out;
  cudaMallocManaged(&out, 128 * sizeof(int));
  phases<<<1, 128>>>(out);
  cudaDeviceSynchronize();
  printf("%d\n", out[0]);
  return 0;
}
