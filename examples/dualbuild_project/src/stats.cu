// Sum of squares per block, staged through shared memory.
#include "common.cuh"

__global__ void sum_squares(const float *__restrict__ x, float *__restrict__ partial, int n) {
    __shared__ float tile[256];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef ASYNC_COPY_AVAILABLE
    const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&tile[threadIdx.x]));
    if (i < n) {
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(dst), "l"(x + i));
    }
    asm volatile("cp.async.wait_all;\n" ::);
#else
    tile[threadIdx.x] = i < n ? x[i] : 0.0f;
#endif
    __syncthreads();
    float v = i < n ? tile[threadIdx.x] * tile[threadIdx.x] : 0.0f;
    v = warp_reduce_sum(v);
    if (threadIdx.x % WARP_SIZE == 0) {
        __stcs(&partial[(blockIdx.x * blockDim.x + threadIdx.x) / WARP_SIZE], v);
    }
}

void launch_sum_squares(const float *x, float *partial, int n, cudaStream_t stream) {
    VECSTATS_CHECK(cudaMemsetAsync(partial, 0, sizeof(float), stream));
    sum_squares<<<(n + 255) / 256, 256, 0, stream>>>(x, partial, n);
    VECSTATS_CHECK(cudaGetLastError());
}
