namespace G = cooperative_groups;
__device__ int f(int v) { return G::inclusive_scan(G::tiled_partition<32>(G::this_thread_block()), v); }