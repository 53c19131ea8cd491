#include <cuda_runtime.h>
__global__ void clamp(unsigned *k, unsigned lo, unsigned hi)
{
    k[threadIdx.x] = umax(lo, umin(k[threadIdx.x], hi));
}
