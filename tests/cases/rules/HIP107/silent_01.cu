#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ void f() { auto t = cg::tiled_partition<16>(cg::this_thread_block()); }