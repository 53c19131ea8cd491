// Included by every kernel file: the vendor header, then what the target can do.
#pragma once

#include <cstdio>

#ifdef VECSTATS_USE_HIP
#include "vendors/hip.h"
#define WARP_SIZE 64
#else
#include "vendors/cuda.h"
#define WARP_SIZE 32
#endif

// Asynchronous global->shared copies: NVIDIA Ampere and newer only.
#if !defined(VECSTATS_USE_HIP) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define ASYNC_COPY_AVAILABLE
#endif

#define VECSTATS_CHECK(call)                                                     \
    do {                                                                         \
        const cudaError_t err_ = (call);                                         \
        if (err_ != cudaSuccess) {                                               \
            std::fprintf(stderr, "vecstats: %s\n", cudaGetErrorString(err_));    \
        }                                                                        \
    } while (0)

static __device__ __forceinline__ float warp_reduce_sum(float x) {
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2) {
        x += __shfl_xor_sync(0xffffffff, x, offset, WARP_SIZE);
    }
    return x;
}
