#include <cuda_runtime.h>
namespace mine {
__device__ unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
}
__global__ void clamp(unsigned *k, unsigned hi)
{
    k[threadIdx.x] = mine::umin(k[threadIdx.x], hi);
}
