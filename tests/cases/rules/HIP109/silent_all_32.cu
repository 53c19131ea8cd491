// Every width 32: the reduction, the lane ids and the warp slots agree (HIP102's business).
#include <cuda_runtime.h>

__global__ void sum(const float *x, float *out) {
    __shared__ float part[32];
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffff, v, o);
    if (lane == 0) part[warp] = v;
    __syncthreads();
    if (threadIdx.x == 0) *out = part[0];
}

__global__ void other(int *n) { *n = warpSize; }
