#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k() { cg::this_grid().sync(); }