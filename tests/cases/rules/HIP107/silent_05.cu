#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(){ cg::thread_block b = cg::this_thread_block(); b.sync(); }
