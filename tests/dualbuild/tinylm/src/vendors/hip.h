// AMD build: HIP under the CUDA names the kernels are written with.
#pragma once

#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#define CUBLAS_COMPUTE_16F HIPBLAS_R_16F
#define cudaError_t hipError_t
#define cudaSuccess hipSuccess
#define cudaGetErrorString hipGetErrorString
#define cudaGetLastError hipGetLastError
#define cudaStream_t hipStream_t
#define cudaStreamCreateWithFlags hipStreamCreateWithFlags
#define cudaStreamNonBlocking hipStreamNonBlocking
#define cudaStreamDestroy hipStreamDestroy
#define cudaStreamSynchronize hipStreamSynchronize
#define cudaMalloc hipMalloc
#define cudaFree hipFree
#define cudaMemcpyAsync hipMemcpyAsync
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
#define cudaMemsetAsync hipMemsetAsync
#define cudaGetDevice hipGetDevice
#define cudaGetDeviceCount hipGetDeviceCount
#define cudaDeviceProp hipDeviceProp_t
#define cudaGetDeviceProperties hipGetDeviceProperties
#define cudaFuncSetAttribute hipFuncSetAttribute
#define cudaFuncAttributeMaxDynamicSharedMemorySize hipFuncAttributeMaxDynamicSharedMemorySize

// HIP 5.2 has the shuffles without a lane mask: a wavefront always runs converged here.
#define __shfl_xor_sync(mask, var, laneMask, width) __shfl_xor(var, laneMask, width)
#define __shfl_sync(mask, var, srcLane, width) __shfl(var, srcLane, width)

// Not in HIP: a trap that stops the kernel, and a streaming store (a plain store on AMD).
#define __trap() __builtin_trap()

template <typename T>
static __device__ __forceinline__ void __stcs(T *ptr, T value) {
    *ptr = value;
}
