// Clamp keys into a window with CUDA's unsigned min/max: 32-bit keys and 64-bit offsets.
#include <cuda_runtime.h>
__global__ void clamp(unsigned *keys, unsigned long long *offsets, unsigned lo, unsigned hi,
                      unsigned long long limit)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    keys[i] = umax(lo, umin(keys[i], hi));
    offsets[i] = ullmin(offsets[i], limit) + ullmax(offsets[i], 1ull);
    keys[i] = umin(keys[i] + 1, 0x80000000u);
}
