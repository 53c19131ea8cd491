// cg::reduce over a warp tile (CUDA 11+ <cooperative_groups/reduce.h>).
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void total(const float *x, float *out, int n) {
  auto block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.f;
  float s = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0) atomicAdd(out, s);
}

int main() {
  const int n = 1000;
  float *x, *out;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&out, sizeof(float));
  for (int i = 0; i < n; ++i) x[i] = 1.f;
  *out = 0.f;
  total<<<(n + 255) / 256, 256>>>(x, out, n);
  cudaDeviceSynchronize();
  printf("%.1f\n", *out);
  return 0;
}
