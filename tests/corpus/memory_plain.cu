// memory_plain.cu - device allocation, copies both ways and memset.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "common.cuh"

__global__ void scale(float *data, float factor, size_t n)
{
    size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) {
        data[i] *= factor;
    }
}

int main()
{
    const size_t n = 1 << 20;
    const size_t bytes = n * sizeof(float);
    std::vector<float> host(n), back(n);
    fillRamp(host.data(), n);

    float *dA = nullptr;
    float *dB = nullptr;
    CUDA_CHECK(cudaMalloc(reinterpret_cast<void **>(&dA), bytes));
    CUDA_CHECK(cudaMalloc(&dB, bytes));

    CUDA_CHECK(cudaMemcpy(dA, host.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dB, 0, bytes));

    const unsigned int block = 256;
    scale<<<ceilDiv(n, block), block>>>(dA, 2.0f, n);
    CUDA_CHECK_KERNEL();

    CUDA_CHECK(cudaMemcpy(dB, dA, bytes, cudaMemcpyDeviceToDevice));
    CUDA_CHECK(cudaMemcpy(back.data(), dB, bytes, cudaMemcpyDeviceToHost));

    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) {
        if (!nearlyEqual(back[i], 2.0f * host[i])) {
            ++bad;
        }
    }
    std::printf("%zu mismatches\n", bad);

    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    return bad == 0 ? 0 : 1;
}
