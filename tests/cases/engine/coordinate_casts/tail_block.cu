// A tail block: the last block of a grid handles fewer elements than it has threads.
#include <cuda_runtime.h>
__global__ void tail(const float *in, float *out, unsigned n, size_t total)
{
    unsigned rem = n - blockIdx.x * blockDim.x;
    unsigned count = min(rem, blockDim.x);
    size_t stride = max(total, (size_t)gridDim.x);
    int lane = min(threadIdx.x, blockDim.x);
    unsigned cap = max(blockDim.x, 32u);
    int plain = min(5, threadIdx.x);
    if (threadIdx.x < count && lane < plain + cap && stride) {
        out[threadIdx.x] = in[threadIdx.x];
    }
}
