// Inline PTX in device functions and in a macro: none of it assembles for AMD.
#include <cuda_runtime.h>

#define LANE_ID(out) asm("mov.u32 %0, %%laneid;" : "=r"(out))

__device__ unsigned lane_id()
{
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
}

__device__ unsigned long long global_timer()
{
    unsigned long long t;
    __asm__ __volatile__("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void k(unsigned *out)
{
    unsigned l;
    LANE_ID(l);
    out[threadIdx.x] = l + lane_id() + (unsigned)global_timer();
}
