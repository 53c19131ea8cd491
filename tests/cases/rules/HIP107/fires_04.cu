#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void sum(const int* x, int* out) {
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    int s = cg::reduce(tile, x[threadIdx.x], cg::plus<int>());
    if (tile.thread_rank() == 0) atomicAdd(out, s);
}
