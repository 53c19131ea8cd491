#include <cooperative_groups.h>
using namespace cooperative_groups;
__device__ void f() { auto t = tiled_partition<48>(this_thread_block()); }