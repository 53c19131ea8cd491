#pragma once

#ifdef NBODY_USE_HIP
#include "hip_compat.h"
#else
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#if CUDART_VERSION >= 11000
#include <cooperative_groups/reduce.h>
#endif
#endif

namespace cg = cooperative_groups;

#define NBODY_CHECK(call)                                                   \
    do {                                                                    \
        const cudaError_t e_ = (call);                                      \
        if (e_ != cudaSuccess) {                                            \
            throw std::runtime_error(cudaGetErrorString(e_));               \
        }                                                                   \
    } while (0)
