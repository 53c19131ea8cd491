// Near misses: one shuffle by 16 is no reduction; % 32 as a tile column is no lane id;
// 1024 / 32 is a bound; the mixed code in the comment and the string is not code:
// warpSum[threadIdx.x / warpSize] after for (int o = 16; ...) __shfl_down_sync(m, v, o)
#include <cuda_runtime.h>

__global__ void k(const float *in, float *out, int n) {
    __shared__ float tile[32];
    const int lane = threadIdx.x % warpSize;
    tile[threadIdx.x % 32] = in[threadIdx.x];
    __syncthreads();
    float acc = tile[lane % 32];
    acc += __shfl_down_sync(0xffffffff, acc, 16);
    int bound = 1024 / 32;
    atomicAdd(&out[lane], acc * bound);
    const char *s = "sums[threadIdx.x / warpSize] with offset 16";
    if (s[0] == 0) out[0] = 0.f;
}
