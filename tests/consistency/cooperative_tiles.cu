// Cooperative groups: a block split into 16-thread tiles that reduce with tile shuffles.
#include <cstdio>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__device__ int tile_sum(cg::thread_block_tile<16> tile, int v) {
  for (int offset = tile.size() / 2; offset > 0; offset /= 2) v += tile.shfl_down(v, offset);
  return v;
}

__global__ void sums(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int v = in[block.group_index().x * block.size() + block.thread_rank()];
  int s = tile_sum(tile, v);
  if (tile.thread_rank() == 0) atomicAdd(out, s);
  block.sync();
}

int main() {
  int *in, *out;
  cudaMallocManaged(&in, 1024 * sizeof(int));
  cudaMallocManaged(&out, sizeof(int));
  for (int i = 0; i < 1024; ++i) in[i] = 1;
  *out = 0;
  sums<<<4, 256>>>(in, out);
  cudaDeviceSynchronize();
  printf("%d\n", *out);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
