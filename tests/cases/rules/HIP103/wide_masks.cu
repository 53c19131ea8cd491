// Near misses: 64-bit masks, masks in comments/strings, 0xffffffff that is not a lane mask.
#include <cstdio>
#include <cuda_runtime.h>

#define FULL_MASK64 0xffffffffffffffffull
#define INVALID_ID 0xffffffff

__global__ void vote(const int *x, unsigned *ids, int *out)
{
    int v = x[threadIdx.x];
    // __shfl_sync(0xffffffff, v, 0);
    unsigned long long mask = __ballot_sync(FULL_MASK64, v > 0);
    auto active = __activemask();
    v += __shfl_sync(active, v, 0);
    v += __shfl_sync(~0ull, v, 0);
    ids[threadIdx.x] = INVALID_ID;
    unsigned hash = 0xffffffff ^ (unsigned)v;
    out[threadIdx.x] = v + __popcll(mask) + (int)hash;
}

int main()
{
    std::printf("mask 0xffffffff\n");
    return 0;
}
