// constant_symbols.cu - __constant__ and __device__ symbols moved with
// cudaMemcpyToSymbol / cudaMemcpyFromSymbol and addressed with
// cudaGetSymbolAddress and cudaGetSymbolSize.
#include <cstdio>
#include <cuda_runtime.h>
#include "common.cuh"

#define FILTER_TAPS 9

__constant__ float c_filter[FILTER_TAPS];
__constant__ int c_width;
__device__ unsigned int d_clipped;
__device__ float d_scratch[256];

__global__ void convolve1d(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.0f;
    for (int t = 0; t < FILTER_TAPS; ++t) {
        int j = i + t - FILTER_TAPS / 2;
        if (j >= 0 && j < n) acc += c_filter[t] * in[j];
    }
    if (acc > 1.0f) {
        atomicAdd(&d_clipped, 1u);
        acc = 1.0f;
    }
    out[i] = acc;
    if (i < c_width) d_scratch[i % 256] = acc;
}

int main()
{
    const int n = 1 << 16;
    float taps[FILTER_TAPS];
    for (int t = 0; t < FILTER_TAPS; ++t) taps[t] = 1.0f / FILTER_TAPS;
    CUDA_CHECK(cudaMemcpyToSymbol(c_filter, taps, sizeof(taps)));
    int width = 256;
    CUDA_CHECK(cudaMemcpyToSymbol(c_width, &width, sizeof(int), 0, cudaMemcpyHostToDevice));
    unsigned int zero = 0;
    CUDA_CHECK(cudaMemcpyToSymbol(d_clipped, &zero, sizeof(zero)));

    // Overwrite the middle tap only, using an offset into the symbol.
    float centre = 0.5f;
    CUDA_CHECK(cudaMemcpyToSymbol(c_filter, &centre, sizeof(float), (FILTER_TAPS / 2) * sizeof(float)));

    float *dIn = nullptr, *dOut = nullptr;
    CUDA_CHECK(cudaMalloc(&dIn, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(dIn, 0, n * sizeof(float)));
    convolve1d<<<n / 256, 256>>>(dIn, dOut, n);
    CUDA_CHECK_KERNEL();

    unsigned int clipped = 0;
    CUDA_CHECK(cudaMemcpyFromSymbol(&clipped, d_clipped, sizeof(clipped)));
    float readBack[FILTER_TAPS];
    CUDA_CHECK(cudaMemcpyFromSymbol(readBack, c_filter, sizeof(readBack), 0, cudaMemcpyDeviceToHost));
    std::printf("clipped %u, centre tap %f\n", clipped, readBack[FILTER_TAPS / 2]);

    // Treat the __device__ array as ordinary device memory.
    float *scratch = nullptr;
    size_t scratchBytes = 0;
    CUDA_CHECK(cudaGetSymbolAddress(reinterpret_cast<void **>(&scratch), d_scratch));
    CUDA_CHECK(cudaGetSymbolSize(&scratchBytes, d_scratch));
    CUDA_CHECK(cudaMemset(scratch, 0, scratchBytes));
    CUDA_CHECK(cudaMemcpyFromSymbolAsync(dOut, d_scratch, scratchBytes, 0, cudaMemcpyDeviceToDevice, 0));
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(dIn));
    CUDA_CHECK(cudaFree(dOut));
    return 0;
}
