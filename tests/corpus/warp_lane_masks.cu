// warp_lane_masks.cu - code that hard-codes the NVIDIA warp size: 32-lane
// arithmetic, 0xffffffff masks, 32-bit ballots stored in unsigned int and
// lane ids computed with & 31. All of these break on 64-wide wavefronts.
#include <cstdio>
#include <cuda_runtime.h>
#include "common.cuh"

#define LANES 32
#define ALL_LANES 0xffffffff

__device__ __forceinline__ int laneId() { return threadIdx.x & 31; }
__device__ __forceinline__ int warpId() { return threadIdx.x >> 5; }

// One bit per lane: a warp's predicate fits in one 32-bit word.
__global__ void packPredicate(const float *x, unsigned int *bits, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool pred = (i < n) && (x[i] > 0.5f);
    unsigned int word = __ballot_sync(ALL_LANES, pred);
    if (laneId() == 0) {
        bits[i / 32] = word;
    }
}

// Segmented sum over groups of 8 lanes using the width argument.
__global__ void segmentedSum(const int *in, int *out)
{
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int offset = 4; offset > 0; offset >>= 1) {
        v += __shfl_down_sync(0xffffffff, v, offset, 8);
    }
    if ((threadIdx.x & 7) == 0) {
        out[(blockIdx.x * blockDim.x + threadIdx.x) / 8] = v;
    }
}

// Rotate values around the warp.
__global__ void rotate(int *data)
{
    int v = data[threadIdx.x];
    int src = (laneId() + 1) % LANES;
    v = __shfl_sync(0xFFFFFFFFu, v, src, 32);
    data[threadIdx.x] = v;
}

__global__ void perWarpFirst(const int *in, int *firstNonZero)
{
    __shared__ int result[1024 / 32];
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    unsigned int mask = __ballot_sync(0xffffffff, v != 0);
    if (laneId() == 0) {
        result[warpId()] = mask ? __ffs(mask) - 1 : -1;
    }
    __syncthreads();
    if (threadIdx.x < blockDim.x / 32) {
        firstNonZero[blockIdx.x * (blockDim.x / 32) + threadIdx.x] = result[threadIdx.x];
    }
}

int main()
{
    const int n = 32 * 1024;
    float *dx = nullptr;
    unsigned int *dBits = nullptr;
    int *dInts = nullptr, *dOut = nullptr;
    CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dBits, (n / 32) * sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&dInts, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
    CUDA_CHECK(cudaMemset(dx, 0, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(dInts, 0, n * sizeof(int)));

    packPredicate<<<n / 256, 256>>>(dx, dBits, n);
    segmentedSum<<<n / 256, 256>>>(dInts, dOut);
    rotate<<<1, 32>>>(dInts);
    perWarpFirst<<<n / 1024, 1024>>>(dInts, dOut);
    CUDA_CHECK_KERNEL();

    int warpSize = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&warpSize, cudaDevAttrWarpSize, 0));
    if (warpSize != 32) {
        std::printf("warning: this program assumes 32 lanes, device has %d\n", warpSize);
    }
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dBits));
    CUDA_CHECK(cudaFree(dInts));
    CUDA_CHECK(cudaFree(dOut));
    return 0;
}
