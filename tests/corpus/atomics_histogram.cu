// atomics_histogram.cu - histogram with shared-memory privatisation, plus
// atomicCAS-based float max and other atomic operations.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "common.cuh"

constexpr int kBins = 256;

__global__ void histogramShared(const unsigned char *data, size_t n, unsigned int *bins)
{
    __shared__ unsigned int local[kBins];
    for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
        local[b] = 0;
    }
    __syncthreads();

    size_t stride = static_cast<size_t>(blockDim.x) * gridDim.x;
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        atomicAdd(&local[data[i]], 1u);
    }
    __syncthreads();

    for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
        atomicAdd(&bins[b], local[b]);
    }
}

// Float max via compare-and-swap on the bit pattern.
__device__ float atomicMaxFloat(float *addr, float value)
{
    int *asInt = reinterpret_cast<int *>(addr);
    int old = *asInt;
    int assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= value) break;
        old = atomicCAS(asInt, assumed, __float_as_int(value));
    } while (assumed != old);
    return __int_as_float(old);
}

__global__ void stats(const float *x, int n, float *maxOut, int *countPositive,
                      unsigned long long *sumBits, double *sum)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    atomicMaxFloat(maxOut, x[i]);
    if (x[i] > 0.0f) atomicAdd(countPositive, 1);
    atomicOr(sumBits, 1ull << (i % 64));
    atomicAdd(sum, static_cast<double>(x[i]));
    atomicMin(countPositive + 1, i);
    atomicExch(countPositive + 2, i);
    atomicInc(reinterpret_cast<unsigned int *>(countPositive + 3), 1000u);
}

int main()
{
    const size_t n = 1 << 22;
    std::vector<unsigned char> host(n);
    for (size_t i = 0; i < n; ++i) host[i] = static_cast<unsigned char>((i * 2654435761u) >> 24);

    unsigned char *dData = nullptr;
    unsigned int *dBins = nullptr;
    CUDA_CHECK(cudaMalloc(&dData, n));
    CUDA_CHECK(cudaMalloc(&dBins, kBins * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(dData, host.data(), n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dBins, 0, kBins * sizeof(unsigned int)));

    histogramShared<<<120, 256>>>(dData, n, dBins);
    CUDA_CHECK_KERNEL();

    std::vector<unsigned int> bins(kBins);
    CUDA_CHECK(cudaMemcpy(bins.data(), dBins, kBins * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    unsigned long long total = 0;
    for (unsigned int b : bins) total += b;
    std::printf("histogram total %llu (expect %zu)\n", total, n);

    CUDA_CHECK(cudaFree(dData));
    CUDA_CHECK(cudaFree(dBins));
    return total == n ? 0 : 1;
}
