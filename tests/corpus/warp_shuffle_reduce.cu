// warp_shuffle_reduce.cu - dot product reduced with warp shuffles from the
// shared warp_reduce.cuh header, plus a warp-level inclusive scan.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "common.cuh"
#include "warp_reduce.cuh"

__global__ void dotProduct(const float *a, const float *b, float *result, int n)
{
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        sum += a[i] * b[i];
    }
    sum = blockReduceSum(sum);
    if (threadIdx.x == 0) {
        atomicAdd(result, sum);
    }
}

__global__ void warpInclusiveScan(int *data)
{
    int lane = threadIdx.x & (WARP_SIZE - 1);
    int value = data[blockIdx.x * blockDim.x + threadIdx.x];
    for (int offset = 1; offset < WARP_SIZE; offset <<= 1) {
        int up = __shfl_up_sync(FULL_MASK, value, offset);
        if (lane >= offset) value += up;
    }
    // Broadcast the warp total from the last lane.
    int total = __shfl_sync(FULL_MASK, value, WARP_SIZE - 1);
    data[blockIdx.x * blockDim.x + threadIdx.x] = value + 0 * total;
}

__global__ void blockMax(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? in[i] : -1e30f;
    v = warpReduceMax(v);
    if ((threadIdx.x % WARP_SIZE) == 0) {
        out[i / WARP_SIZE] = v;
    }
}

int main()
{
    const int n = 1 << 20;
    std::vector<float> a(n, 1.0f), b(n, 2.0f);
    float *dA = nullptr, *dB = nullptr, *dResult = nullptr;
    CUDA_CHECK(cudaMalloc(&dA, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dB, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dResult, sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dA, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dResult, 0, sizeof(float)));

    dotProduct<<<128, 256>>>(dA, dB, dResult, n);
    CUDA_CHECK_KERNEL();
    float result = 0.0f;
    CUDA_CHECK(cudaMemcpy(&result, dResult, sizeof(float), cudaMemcpyDeviceToHost));
    std::printf("dot = %f (expect %f)\n", result, 2.0f * n);

    int *dScan = nullptr;
    CUDA_CHECK(cudaMalloc(&dScan, 64 * sizeof(int)));
    CUDA_CHECK(cudaMemset(dScan, 0, 64 * sizeof(int)));
    warpInclusiveScan<<<2, 32>>>(dScan);
    blockMax<<<n / 256, 256>>>(dA, dB, n);
    CUDA_CHECK_KERNEL();

    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dResult));
    CUDA_CHECK(cudaFree(dScan));
    return 0;
}
