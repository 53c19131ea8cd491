#include <cuda_runtime.h>
__global__ void k(int *out, int n, float x)
{
    out[0] = min(n, threadIdx.x);
    out[1] = max(x, blockIdx.x);
    out[2] = min(5, blockDim.x);
    out[3] = std::min(n, 3);
}
