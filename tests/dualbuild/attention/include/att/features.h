// Features derived from the configuration and the target architecture.
#pragma once

#include "att/config.h"

#if defined(ATT_TENSOR_CORES) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
#define WMMA_AVAILABLE
#endif

#if defined(WMMA_AVAILABLE) && __CUDA_ARCH__ >= 800
#define BF16_WMMA_AVAILABLE
#endif

#ifdef WMMA_AVAILABLE
#include <mma.h>
#endif

// Occupancy hint: the second value is a minimum of resident blocks per SM on NVIDIA only.
#if ATT_BACKEND_HIP
#define ATT_LAUNCH_BOUNDS(threads) __launch_bounds__(threads)
#else
#define ATT_LAUNCH_BOUNDS(threads) __launch_bounds__(threads, 2)
#endif
