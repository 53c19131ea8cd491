// memory_async.cu - stream-ordered allocation (cudaMallocAsync/cudaFreeAsync),
// memory pools and asynchronous copies from pinned memory.
#include <cstdio>
#include <cuda_runtime.h>
#include "common.cuh"

__global__ void square(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * in[i];
    }
}

int main()
{
    const int n = 1 << 16;
    const size_t bytes = n * sizeof(float);
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));

    int poolsSupported = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&poolsSupported, cudaDevAttrMemoryPoolsSupported, device));
    if (!poolsSupported) {
        std::printf("stream-ordered allocator not supported\n");
        return 0;
    }

    // Keep freed memory in the default pool instead of returning it.
    cudaMemPool_t pool;
    CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
    unsigned long long threshold = ~0ull;
    CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));

    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

    float *hostIn = nullptr;
    float *hostOut = nullptr;
    CUDA_CHECK(cudaMallocHost(&hostIn, bytes));
    CUDA_CHECK(cudaMallocHost(&hostOut, bytes));
    fillRamp(hostIn, n, 0.5f);

    for (int iter = 0; iter < 4; ++iter) {
        float *dIn = nullptr;
        float *dOut = nullptr;
        CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void **>(&dIn), bytes, stream));
        CUDA_CHECK(cudaMallocFromPoolAsync(reinterpret_cast<void **>(&dOut), bytes, pool, stream));
        CUDA_CHECK(cudaMemcpyAsync(dIn, hostIn, bytes, cudaMemcpyHostToDevice, stream));
        square<<<(n + 255) / 256, 256, 0, stream>>>(dIn, dOut, n);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpyAsync(hostOut, dOut, bytes, cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaMemsetAsync(dIn, 0, bytes, stream));
        CUDA_CHECK(cudaFreeAsync(dIn, stream));
        CUDA_CHECK(cudaFreeAsync(dOut, stream));
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));

    size_t used = 0;
    CUDA_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    std::printf("out[3] = %f, pool in use %zu bytes\n", hostOut[3], used);
    CUDA_CHECK(cudaMemPoolTrimTo(pool, 0));

    CUDA_CHECK(cudaFreeHost(hostIn));
    CUDA_CHECK(cudaFreeHost(hostOut));
    CUDA_CHECK(cudaStreamDestroy(stream));
    return 0;
}
