// Near misses: cooperative-groups features HIP supports; std::reduce; names in comments.
#include <numeric>
#include <vector>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// cg::reduce(tile, v, cg::plus<int>());
__global__ void sum(const int *x, int *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    auto t64 = cg::tiled_partition<64>(block);
    cg::thread_group t16 = cg::tiled_partition(block, 16);
    int v = x[block.thread_rank()];
    for (int o = tile.size() / 2; o > 0; o /= 2) v += tile.shfl_down(v, o);
    if (tile.thread_rank() == 0) atomicAdd(out, v + (int)t64.size() + (int)t16.size());
    cg::grid_group grid = cg::this_grid();
    grid.sync();
}

int host_sum(const std::vector<int> &v) { return std::reduce(v.begin(), v.end()); }
