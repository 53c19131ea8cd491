// A warp reduction that synchronises the warp with __syncwarp between shared-memory steps.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void warp_reduce(const int *in, int *out) {
  __shared__ int s[32];
  int lane = threadIdx.x;
  s[lane] = in[lane];
  __syncwarp();
  for (int offset = 16; offset > 0; offset >>= 1) {
    if (lane < offset) s[lane] += s[lane + offset];
    __syncwarp();
  }
  if (lane == 0) *out = s[0];
}

int main() {
  int *in, *out;
  cudaMallocManaged(&in, 32 * sizeof(int));
  cudaMallocManaged(&out, sizeof(int));
  for (int i = 0; i < 32; ++i) in[i] = i;
  warp_reduce<<<1, 32>>>(in, out);
  cudaDeviceSynchronize();
  printf("%d\n", *out);
  return 0;
}
