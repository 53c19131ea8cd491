// Warp-wide vote and scan primitives, sized for the wavefront of the build.
#pragma once

#ifndef SC_WARP_SIZE
#define SC_WARP_SIZE 32
#endif

#ifdef SC_USE_HIP
#include <hip/hip_runtime.h>
// HIP 5.2 has no *_sync votes: a wavefront runs converged, the mask has nothing to say.
#define __ballot_sync(mask, predicate) __ballot(predicate)
#define __shfl_up_sync(mask, var, delta, width) __shfl_up(var, delta, width)
#define __shfl_sync(mask, var, srcLane, width) __shfl(var, srcLane, width)
#define __activemask() __ballot(1)
#define cudaError_t hipError_t
#define cudaGetLastError hipGetLastError
#else
#include <cuda_runtime.h>
#endif

#if SC_WARP_SIZE == 64
typedef unsigned long long lanemask_t;
#define SC_POPC(x) __popcll(x)
#define SC_FULL_MASK 0xffffffffffffffffull
#else
typedef unsigned int lanemask_t;
#define SC_POPC(x) __popc(x)
#define SC_FULL_MASK 0xffffffffu
#endif

__device__ __forceinline__ lanemask_t lanes_below(int lane) {
    return lane == 0 ? lanemask_t(0) : (SC_FULL_MASK >> (SC_WARP_SIZE - lane));
}

__device__ __forceinline__ int warp_inclusive_scan(int v, int lane) {
    for (int d = 1; d < SC_WARP_SIZE; d *= 2) {
        const int up = __shfl_up_sync(SC_FULL_MASK, v, d, SC_WARP_SIZE);
        if (lane >= d) v += up;
    }
    return v;
}
