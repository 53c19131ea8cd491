// Every width warpSize: consistent on 32 and 64 lanes.
#include <cuda_runtime.h>

__device__ float warpReduce(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}

__global__ void sum(const float *x, float *out) {
    __shared__ float part[1024 / 32];
    int lane = threadIdx.x % warpSize;
    int warp = threadIdx.x / warpSize;
    float v = warpReduce(x[blockIdx.x * blockDim.x + threadIdx.x]);
    if ((threadIdx.x & (warpSize - 1)) == 0) part[warp] = v;
    __syncthreads();
    if (threadIdx.x < blockDim.x / warpSize && lane >= 0) atomicAdd(out, part[threadIdx.x]);
}
