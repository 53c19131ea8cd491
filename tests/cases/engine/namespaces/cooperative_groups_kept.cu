#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* d) {
  cooperative_groups::thread_block b = cg::this_thread_block();
  b.sync();
  d[0] = 1;
}
