#include <cub/cub.cuh>
#define WARP_REDUCE(T) cub::WarpReduce<T>
__global__ void k(int* d) {
  __shared__ typename WARP_REDUCE(int)::TempStorage temp;
  d[0] = WARP_REDUCE(int)(temp).Sum(d[threadIdx.x]);
}
