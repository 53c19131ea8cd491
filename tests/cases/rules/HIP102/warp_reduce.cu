// Block reduction written for 32-lane warps.
#include <cuda_runtime.h>

#define WARP_SIZE 32
constexpr int kWarpSize = 32;

__device__ __forceinline__ int laneId() { return threadIdx.x & 0x1f; }

__global__ void blockSum(const float *in, float *out)
{
    __shared__ float partial[32];
    __shared__ float perLane[WARP_SIZE];
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;
    int alsoWarp = threadIdx.x >> 5;
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(__activemask(), v, offset);
    perLane[lane] = v;
    if ((threadIdx.x & 31) == 0) partial[warp + alsoWarp * 0] = v;
    __syncthreads();
    if (threadIdx.x == 0) *out = partial[0] + perLane[0] + laneId() + kWarpSize;
}
