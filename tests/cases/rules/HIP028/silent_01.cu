#include <cuda_runtime.h>
__global__ void tail(float *out, unsigned n)
{
    unsigned rem = n - blockIdx.x * blockDim.x;
    unsigned count = min(rem, blockDim.x);
    if (threadIdx.x < count) out[threadIdx.x] = 0.f;
}
