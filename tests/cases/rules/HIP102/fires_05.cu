#include <cuda_runtime.h>
__global__ void k(){ int lane = threadIdx.x % 32; int v = __shfl_down(lane, 1); }
