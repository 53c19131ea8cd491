// 32-bit lane masks for a target without the *_sync intrinsics (ROCm 6.1; from 6.2 rules/warp_masks.py handles the masks): constants passed to *_sync and ballots kept in 32 bits.
#include <cstdint>
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff
constexpr unsigned kAll = ~0u;

__global__ void vote(const int *x, int *out)
{
    int v = x[threadIdx.x];
    v += __shfl_xor_sync(0xFFFFFFFF, v, 1);
    v += __shfl_down_sync(FULL_MASK, v, 2);
    unsigned mask = __ballot_sync(kAll, v > 0);
    uint32_t active = __activemask();
    int any = __any_sync(~0u, v < 0);
    __syncwarp(0xffffffffu);
    int count = __popc(__ballot_sync(__activemask(), v != 0));
    unsigned int later;
    later = __ballot_sync(__activemask(), v == 3);
    out[threadIdx.x] = v + mask + active + any + count + later;
}
