// Shared by every kernel file: the vendor header, feature macros, warp helpers.
#pragma once

#include <cstdio>
#include <cstdlib>

#if defined(TINYLM_USE_HIP)
#include "vendors/hip.h"
#else
#include "vendors/cuda.h"
#endif

#define TINYLM_WARP_SIZE 32

// Features only NVIDIA's newer GPUs have; the HIP build takes the portable paths.
#if !defined(TINYLM_USE_HIP) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define CP_ASYNC_AVAILABLE
#endif

#if !defined(TINYLM_USE_HIP) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
#define LDMATRIX_AVAILABLE
#endif

#define TINYLM_CHECK(call)                                                        \
    do {                                                                          \
        cudaError_t err_ = (call);                                                \
        if (err_ != cudaSuccess) {                                                \
            fprintf(stderr, "tinylm: %s at %s:%d\n", cudaGetErrorString(err_),    \
                    __FILE__, __LINE__);                                          \
            exit(1);                                                              \
        }                                                                         \
    } while (0)

static __device__ __forceinline__ float warp_reduce_sum(float x) {
#pragma unroll
    for (int offset = TINYLM_WARP_SIZE / 2; offset > 0; offset >>= 1) {
        x += __shfl_xor_sync(0xffffffff, x, offset, TINYLM_WARP_SIZE);
    }
    return x;
}

static __device__ __forceinline__ float warp_reduce_max(float x) {
#pragma unroll
    for (int offset = TINYLM_WARP_SIZE / 2; offset > 0; offset >>= 1) {
        x = fmaxf(x, __shfl_xor_sync(0xffffffff, x, offset, TINYLM_WARP_SIZE));
    }
    return x;
}

static __device__ __forceinline__ void tinylm_assert_finite(float x) {
    if (!isfinite(x)) {
        __trap();
    }
}
