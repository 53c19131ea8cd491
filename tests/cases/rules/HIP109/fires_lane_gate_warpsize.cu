// An unrolled 32-lane reduction whose result is taken at lane 0 of warpSize lanes: on 64
// lanes lane 32 holds the second tile's sum and it is dropped.
#include <cuda_runtime.h>

__global__ void sum(const float *x, float *out) {
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    v += __shfl_down_sync(0xffffffff, v, 16);
    v += __shfl_down_sync(0xffffffff, v, 8);
    v += __shfl_down_sync(0xffffffff, v, 4);
    v += __shfl_down_sync(0xffffffff, v, 2);
    v += __shfl_down_sync(0xffffffff, v, 1);
    if ((threadIdx.x & (warpSize - 1)) == 0) atomicAdd(out, v);
    if (threadIdx.x % warpSize == 0) atomicAdd(out + 1, v);
}
