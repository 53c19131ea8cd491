// Build configuration: which backend, and what it may use.
#pragma once

#if defined(ATT_USE_HIP)
#define ATT_BACKEND_HIP 1
#define ATT_WARP 64
#else
#define ATT_BACKEND_HIP 0
#define ATT_WARP 32
#define ATT_TENSOR_CORES
#endif

#if ATT_BACKEND_HIP
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#else
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#endif
