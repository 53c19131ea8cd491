#pragma once

#if defined(CONVKERN_HIP)
#include <hip/hip_runtime.h>
#define cudaStream_t hipStream_t
#define cudaError_t hipError_t
#define cudaGetLastError hipGetLastError
#else
#include <cuda_runtime.h>
#endif

// Byte permute: PTX prmt on NVIDIA, the AMD perm builtin's portable twin elsewhere.
__device__ __forceinline__ unsigned byte_perm(unsigned lo, unsigned hi, unsigned selector) {
#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_HCC__)
    const unsigned long long both = (static_cast<unsigned long long>(hi) << 32) | lo;
    unsigned r = 0;
    for (int i = 0; i < 4; ++i) {
        const unsigned sel = (selector >> (4 * i)) & 7u;
        r |= static_cast<unsigned>((both >> (8 * sel)) & 0xffu) << (8 * i);
    }
    return r;
#elif defined(__CUDA_ARCH__)
    unsigned r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(selector));
    return r;
#else
    return __byte_perm(lo, hi, selector);
#endif
}

// Read-only cache loads where the architecture has them.
template <typename T>
__device__ __forceinline__ T load_ro(const T *p) {
#if !defined(CONVKERN_HIP)
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 350)
    return __ldg(p);
#else
    return *p;
#endif
#else
    return *p;
#endif
}
