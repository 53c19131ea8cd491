// Clamp unsigned bin indices with the umin/umax device functions before a histogram update.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void bin(const unsigned int *keys, unsigned int *hist, int n, unsigned int lo,
                    unsigned int hi, unsigned int width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned int k = umax(lo, umin(keys[i], hi));
  atomicAdd(&hist[(k - lo) / width], 1u);
}

int main() {
  const int n = 1 << 16;
  const unsigned int lo = 100, hi = 1099, width = 100, bins = (hi - lo) / width + 1;
  unsigned int *keys, *hist;
  cudaMallocManaged(&keys, n * sizeof(unsigned int));
  cudaMallocManaged(&hist, bins * sizeof(unsigned int));
  for (int i = 0; i < n; ++i) keys[i] = (i * 37u) % 1400u;
  cudaMemset(hist, 0, bins * sizeof(unsigned int));
  bin<<<n / 256, 256>>>(keys, hist, n, lo, hi, width);
  cudaDeviceSynchronize();
  printf("%u %u\n", hist[0], hist[bins - 1]);
  cudaFree(keys);
  cudaFree(hist);
  return 0;
}
