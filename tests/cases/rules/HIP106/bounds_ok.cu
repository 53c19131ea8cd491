// Near misses: one-argument launch bounds, launch bounds in comments and strings.
#include <cstdio>
#include <cuda_runtime.h>

// __global__ void __launch_bounds__(256, 2) old(float *x);
__global__ void __launch_bounds__(256) a(float *x) { x[threadIdx.x] = 0.f; }
__global__ void __launch_bounds__(2 * 128) b(float *x) { x[threadIdx.x] = 1.f; }

int main()
{
    std::printf("__launch_bounds__(256, 2)\n");
    return 0;
}
