// Portability macros of the extension (its build adds include/ to the include path).
#pragma once

#ifdef USE_ROCM
#include <hip/hip_runtime.h>
#define PYEXT_WARP_SIZE 64
#define PYEXT_SHFL_XOR(mask, value, lane) __shfl_xor(value, lane)
typedef hipStream_t pyext_stream_t;
#else
#include <cuda_runtime.h>
#define PYEXT_WARP_SIZE 32
#define PYEXT_SHFL_XOR(mask, value, lane) __shfl_xor_sync(mask, value, lane)
typedef cudaStream_t pyext_stream_t;
#endif

#if defined(__HIP_PLATFORM_HCC__) || defined(__HIP_PLATFORM_AMD__)
#define PYEXT_RESTRICT __restrict__
#define PYEXT_FULL_MASK 0xffffffffffffffffull
#else
#define PYEXT_RESTRICT __restrict__
#define PYEXT_FULL_MASK 0xffffffffu
#endif
