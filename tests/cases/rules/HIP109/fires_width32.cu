// Shuffles of width 32 (32-lane segments) with warp slots per warpSize.
#include <cuda_runtime.h>

__global__ void sum(const float *x, float *out) {
    __shared__ float part[32];
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = 1; o < 32; o *= 2)
        v += __shfl_xor_sync(0xffffffff, v, o, 32);
    unsigned warp = threadIdx.x / warpSize;
    part[warp] = v;
    __syncthreads();
    if (threadIdx.x == 0) *out = part[0];
}
