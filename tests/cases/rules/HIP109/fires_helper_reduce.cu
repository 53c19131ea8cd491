// A block sum whose warp reduction (a helper) works on 32-lane tiles, stored per warpSize.
#include <cuda_runtime.h>

__device__ float warpReduce(float v) {
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

__global__ void blockSum(const float *in, float *out) {
    __shared__ float warpSum[32];
    float v = warpReduce(in[blockIdx.x * blockDim.x + threadIdx.x]);
    if (threadIdx.x % 32 == 0) warpSum[threadIdx.x / warpSize] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.f;
        for (int w = 0; w < 32; ++w) s += warpSum[w];
        *out = s;
    }
}
