// tiled_partition<32> with slots indexed by the tile (meta_group_rank); warpSize only in
// another kernel.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void total(const float *x, float *out, int n) {
    __shared__ float sums[32];
    auto block = cg::this_thread_block();
    auto tile = cg::tiled_partition<32>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = cg::reduce(tile, i < n ? x[i] : 0.f, cg::plus<float>());
    if (tile.thread_rank() == 0) sums[tile.meta_group_rank()] = s;
    block.sync();
    if (threadIdx.x == 0) {
        float t = 0.f;
        for (unsigned w = 0; w < tile.meta_group_size(); ++w) t += sums[w];
        atomicAdd(out, t);
    }
}

__global__ void lanes(int *out) { out[threadIdx.x] = threadIdx.x % warpSize; }
