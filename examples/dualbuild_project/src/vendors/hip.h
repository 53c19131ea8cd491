// AMD build: HIP under the CUDA names the sources use, and what HIP lacks.
#pragma once

#include <hip/hip_runtime.h>

#define cudaError_t hipError_t
#define cudaSuccess hipSuccess
#define cudaGetErrorString hipGetErrorString
#define cudaGetLastError hipGetLastError
#define cudaStream_t hipStream_t
#define cudaMemsetAsync hipMemsetAsync

// HIP 5.x has the shuffles without a lane mask (a wavefront runs converged).
#define __shfl_xor_sync(mask, var, laneMask, width) __shfl_xor(var, laneMask, width)

// CUDA's streaming store has no HIP counterpart: a plain store on AMD.
template <typename T>
static __device__ __forceinline__ void __stcs(T *ptr, T value) {
    *ptr = value;
}
