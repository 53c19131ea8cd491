// Cooperative-groups features HIP lacks: reduce.h, memcpy_async, clusters, big tiles.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void sum(const int *x, int *out)
{
    __shared__ int buf[256];
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, buf, x, sizeof(buf));
    cg::wait(block);
    auto tile = cg::tiled_partition<32>(block);
    int s = cg::reduce(tile, buf[threadIdx.x], cg::plus<int>());
    if (tile.meta_group_rank() == 0 && tile.thread_rank() == 0) atomicAdd(out, s);
    cg::thread_block_tile<128> big = cg::tiled_partition<128>(block);
    (void)big;
}

__global__ void __cluster_dims__(2, 1, 1) clustered(int *out)
{
    cg::cluster_group cluster = cg::this_cluster();
    out[cluster.block_rank()] = 1;
}
