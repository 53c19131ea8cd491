// stencil_1d.cu - 1D stencil with a shared-memory halo, the second program
// that shares common.cuh and uses the checkCuda() function form.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "common.cuh"

#define RADIUS 3
#define BLOCK_SIZE 256

__global__ void stencil(const float *in, float *out, int n)
{
    __shared__ float temp[BLOCK_SIZE + 2 * RADIUS];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + RADIUS;

    temp[l] = (g < n) ? in[g] : 0.0f;
    if (threadIdx.x < RADIUS) {
        int left = g - RADIUS;
        int right = g + BLOCK_SIZE;
        temp[l - RADIUS] = (left >= 0) ? in[left] : 0.0f;
        temp[l + BLOCK_SIZE] = (right < n) ? in[right] : 0.0f;
    }
    __syncthreads();

    if (g < n) {
        float sum = 0.0f;
        for (int off = -RADIUS; off <= RADIUS; ++off) sum += temp[l + off];
        out[g] = sum;
    }
}

int main()
{
    const int n = 1 << 20;
    std::vector<float> host(n, 1.0f), result(n);
    float *dIn = nullptr, *dOut = nullptr;
    if (checkCuda(cudaMalloc(&dIn, n * sizeof(float)), "cudaMalloc in") != cudaSuccess) return 1;
    if (checkCuda(cudaMalloc(&dOut, n * sizeof(float)), "cudaMalloc out") != cudaSuccess) return 1;
    checkCuda(cudaMemcpy(dIn, host.data(), n * sizeof(float), cudaMemcpyHostToDevice), "upload");

    stencil<<<ceilDiv(n, BLOCK_SIZE), BLOCK_SIZE>>>(dIn, dOut, n);
    checkCuda(cudaGetLastError(), "stencil launch");
    checkCuda(cudaDeviceSynchronize(), "stencil run");
    checkCuda(cudaMemcpy(result.data(), dOut, n * sizeof(float), cudaMemcpyDeviceToHost), "download");

    std::printf("out[0] = %f (expect %d), out[100] = %f (expect %d)\n", result[0], RADIUS + 1,
                result[100], 2 * RADIUS + 1);
    checkCuda(cudaFree(dIn), "free in");
    checkCuda(cudaFree(dOut), "free out");
    return 0;
}
