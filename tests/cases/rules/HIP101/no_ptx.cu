// Near misses: asm in comments and strings, host-only x86 asm, a variable named like asm.
#include <cstdio>
#include <cuda_runtime.h>

// asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
/* __asm__("bar.sync 0;"); */
static const char *kHelp = "use asm(\"...\") only on NVIDIA";

unsigned long long host_cycles()
{
    unsigned lo, hi;
    asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((unsigned long long)hi << 32) | lo;
}

__global__ void k(int *out)
{
    int asm_count = 3;
    out[threadIdx.x] = asm_count;
}

int main()
{
    std::printf("%s %llu\n", kHelp, host_cycles());
    return 0;
}
