// warp_reduce.cuh - warp and block reductions built on shuffles.
// Assumes the NVIDIA warp size of 32 lanes and a full-warp mask.
#ifndef CORPUS_WARP_REDUCE_CUH
#define CORPUS_WARP_REDUCE_CUH

#include <cuda_runtime.h>

#define WARP_SIZE 32
#define FULL_MASK 0xffffffffu

template <typename T>
__device__ __forceinline__ T warpReduceSum(T value)
{
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1) {
        value += __shfl_down_sync(FULL_MASK, value, offset);
    }
    return value;
}

template <typename T>
__device__ __forceinline__ T warpReduceMax(T value)
{
    for (int offset = 16; offset > 0; offset /= 2) {
        T other = __shfl_xor_sync(0xffffffff, value, offset);
        value = other > value ? other : value;
    }
    return value;
}

// Block-wide sum; blockDim.x must be a multiple of 32 and at most 1024.
template <typename T>
__device__ T blockReduceSum(T value)
{
    __shared__ T partial[32];
    int lane = threadIdx.x % WARP_SIZE;
    int warp = threadIdx.x / WARP_SIZE;

    value = warpReduceSum(value);
    if (lane == 0) {
        partial[warp] = value;
    }
    __syncthreads();

    int warps = blockDim.x / WARP_SIZE;
    value = (threadIdx.x < warps) ? partial[lane] : T(0);
    if (warp == 0) {
        value = warpReduceSum(value);
    }
    return value;
}

#endif // CORPUS_WARP_REDUCE_CUH
