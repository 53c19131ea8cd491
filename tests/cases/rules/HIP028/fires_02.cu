#include <cuda_runtime.h>
__global__ void k(unsigned *out)
{
    out[0] = max(blockDim.x, 32u) + min(threadIdx.y, blockDim.y);
}
