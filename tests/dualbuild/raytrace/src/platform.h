// Compiler-selected runtime: hipcc predefines __HIPCC__, nvcc does not.
#pragma once

#if defined(__HIPCC__)
#include <hip/hip_runtime.h>
#define cudaError_t hipError_t
#define cudaSuccess hipSuccess
#define cudaMallocManaged hipMallocManaged
#define cudaMemAttachGlobal hipMemAttachGlobal
#define cudaDeviceSynchronize hipDeviceSynchronize
#define cudaFree hipFree
#define cudaGetLastError hipGetLastError
#else
#include <cuda_runtime.h>
#endif

#if defined(RT_ENABLE_HIP)
#define RT_BACKEND_NAME "hip"
#else
#define RT_BACKEND_NAME "cuda"
#endif

// Lane index and a short back-off used by the persistent-thread scheduler.
__device__ __forceinline__ unsigned rt_lane_id() {
#if defined(__HIP_PLATFORM_NVIDIA__) || !defined(__HIPCC__)
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
#else
    return __lane_id();
#endif
}

__device__ __forceinline__ void rt_backoff() {
#ifndef __HIPCC__
#if __CUDA_ARCH__ >= 700
    __nanosleep(64);
#endif
#else
    __builtin_amdgcn_s_sleep(1);
#endif
}
