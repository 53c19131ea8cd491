// fp16_axpy.cu - half precision with cuda_fp16.h: conversions, scalar and
// paired (__half2) arithmetic, and a mixed-precision dot product.
#include <cstdio>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include "common.cuh"

__global__ void toHalf(const float *in, __half *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __float2half(in[i]);
}

__global__ void haxpy(__half a, const __half *x, __half *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = __hadd(__hmul(a, x[i]), y[i]);
    }
}

// Two elements per thread with __half2 and fused multiply-add.
__global__ void haxpy2(__half a, const __half2 *x, __half2 *y, int n2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __half2 a2 = __halves2half2(a, a);
    if (i < n2) {
        y[i] = __hfma2(a2, x[i], y[i]);
    }
}

__global__ void dotHalfAccumFloat(const __half *x, const __half *y, float *result, int n)
{
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        sum += __half2float(x[i]) * __half2float(y[i]);
    }
    if (__hgt(__float2half(sum), __float2half(0.0f))) {
        atomicAdd(result, sum);
    }
}

int main()
{
    const int n = 1 << 14;
    std::vector<float> host(n, 0.5f);
    float *dF = nullptr, *dResult = nullptr;
    __half *dX = nullptr, *dY = nullptr;
    CUDA_CHECK(cudaMalloc(&dF, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dResult, sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dX, n * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&dY, n * sizeof(__half)));
    CUDA_CHECK(cudaMemcpy(dF, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dResult, 0, sizeof(float)));

    toHalf<<<n / 256, 256>>>(dF, dX, n);
    toHalf<<<n / 256, 256>>>(dF, dY, n);
    __half a = __float2half(2.0f);
    haxpy<<<n / 256, 256>>>(a, dX, dY, n);
    haxpy2<<<n / 512, 256>>>(a, reinterpret_cast<const __half2 *>(dX),
                             reinterpret_cast<__half2 *>(dY), n / 2);
    dotHalfAccumFloat<<<32, 256>>>(dX, dY, dResult, n);
    CUDA_CHECK_KERNEL();

    std::vector<__half> back(n);
    CUDA_CHECK(cudaMemcpy(back.data(), dY, n * sizeof(__half), cudaMemcpyDeviceToHost));
    std::printf("y[0] = %f (expect 2.5)\n", __half2float(back[0]));

    CUDA_CHECK(cudaFree(dF));
    CUDA_CHECK(cudaFree(dResult));
    CUDA_CHECK(cudaFree(dX));
    CUDA_CHECK(cudaFree(dY));
    return 0;
}
