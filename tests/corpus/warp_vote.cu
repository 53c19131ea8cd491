// warp_vote.cu - warp vote intrinsics: __ballot_sync, __any_sync, __all_sync,
// __activemask and population counts for stream compaction.
#include <cstdio>
#include <cuda_runtime.h>
#include "common.cuh"

// Compact the positive values of each warp into out, returning the count.
__global__ void compactPositive(const int *in, int *out, int *outCount, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int value = (i < n) ? in[i] : 0;
    bool keep = value > 0;

    unsigned int ballot = __ballot_sync(0xffffffff, keep);
    int warpCount = __popc(ballot);
    int rank = __popc(ballot & ((1u << lane) - 1));

    int base = 0;
    if (lane == 0 && warpCount > 0) {
        base = atomicAdd(outCount, warpCount);
    }
    base = __shfl_sync(0xffffffff, base, 0);
    if (keep) {
        out[base + rank] = value;
    }
}

__global__ void voteSummary(const int *in, int *flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 1;
    int anyZero = __any_sync(0xffffffff, v == 0);
    int allOdd = __all_sync(0xffffffff, v & 1);
    unsigned int active = __activemask();
    if (threadIdx.x % 32 == 0) {
        int warpId = i / 32;
        flags[3 * warpId + 0] = anyZero;
        flags[3 * warpId + 1] = allOdd;
        flags[3 * warpId + 2] = __popc(active);
    }
    if (i < 32) {
        // Only the even lanes take part in this vote.
        if ((threadIdx.x & 1) == 0) {
            unsigned int evens = __ballot_sync(0x55555555, v > 10);
            if (threadIdx.x == 0) flags[0] |= (evens != 0) << 4;
        }
    }
}

int main()
{
    const int n = 1 << 16;
    int *host = nullptr;
    CUDA_CHECK(cudaMallocHost(&host, n * sizeof(int)));
    for (int i = 0; i < n; ++i) host[i] = (i % 7) - 3;

    int *dIn = nullptr, *dOut = nullptr, *dCount = nullptr, *dFlags = nullptr;
    CUDA_CHECK(cudaMalloc(&dIn, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dCount, sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dFlags, 3 * (n / 32) * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dIn, host, n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dCount, 0, sizeof(int)));

    compactPositive<<<n / 256, 256>>>(dIn, dOut, dCount, n);
    voteSummary<<<n / 256, 256>>>(dIn, dFlags, n);
    CUDA_CHECK_KERNEL();

    int count = 0;
    CUDA_CHECK(cudaMemcpy(&count, dCount, sizeof(int), cudaMemcpyDeviceToHost));
    std::printf("%d positive values kept\n", count);

    CUDA_CHECK(cudaFree(dIn));
    CUDA_CHECK(cudaFree(dOut));
    CUDA_CHECK(cudaFree(dCount));
    CUDA_CHECK(cudaFree(dFlags));
    CUDA_CHECK(cudaFreeHost(host));
    return 0;
}
