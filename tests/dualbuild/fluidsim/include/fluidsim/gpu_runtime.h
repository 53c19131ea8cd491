// One spelling of the runtime for both vendors: kernels and host code call gpu*.
#ifndef FLUIDSIM_GPU_RUNTIME_H
#define FLUIDSIM_GPU_RUNTIME_H

#include <cstddef>
#include <cstdio>

#ifdef FLUIDSIM_HIP
#include <hip/hip_runtime.h>
typedef hipError_t gpuError_t;
typedef hipStream_t gpuStream_t;
typedef hipEvent_t gpuEvent_t;
#define gpuSuccess hipSuccess
#define gpuGetErrorString hipGetErrorString
#define gpuPeekAtLastError hipPeekAtLastError
#define gpuStreamCreate hipStreamCreate
#define gpuStreamDestroy hipStreamDestroy
#define gpuEventCreate hipEventCreate
#define gpuEventRecord hipEventRecord
#define gpuEventSynchronize hipEventSynchronize
#define gpuEventElapsedTime hipEventElapsedTime
#define gpuMemcpyAsync hipMemcpyAsync
#define gpuMemcpyDefault hipMemcpyDefault
#define gpuFreeAsync(ptr, stream) hipFree(ptr)
#define gpuMallocAsync(ptr, size, stream) hipMalloc(ptr, size)
#else
#include <cuda_runtime.h>
typedef cudaError_t gpuError_t;
typedef cudaStream_t gpuStream_t;
typedef cudaEvent_t gpuEvent_t;
#define gpuSuccess cudaSuccess
#define gpuGetErrorString cudaGetErrorString
#define gpuPeekAtLastError cudaPeekAtLastError
#define gpuStreamCreate cudaStreamCreate
#define gpuStreamDestroy cudaStreamDestroy
#define gpuEventCreate cudaEventCreate
#define gpuEventRecord cudaEventRecord
#define gpuEventSynchronize cudaEventSynchronize
#define gpuEventElapsedTime cudaEventElapsedTime
#define gpuMemcpyAsync cudaMemcpyAsync
#define gpuMemcpyDefault cudaMemcpyDefault
#if CUDART_VERSION >= 11020
#define gpuMallocAsync cudaMallocAsync
#define gpuFreeAsync cudaFreeAsync
#else
#define gpuFreeAsync(ptr, stream) cudaFree(ptr)
#define gpuMallocAsync(ptr, size, stream) cudaMalloc(ptr, size)
#endif
#endif

#define GPU_CHECK(expr)                                                          \
    do {                                                                         \
        gpuError_t status_ = (expr);                                             \
        if (status_ != gpuSuccess) {                                             \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,              \
                         gpuGetErrorString(status_));                            \
        }                                                                        \
    } while (0)

#ifndef FLUIDSIM_BLOCK
#define FLUIDSIM_BLOCK 128
#endif

#endif
