// cufft_c2c.cu - cuFFT: a 1D complex-to-complex plan run forward and inverse,
// a batched plan through cufftPlanMany, and a real-to-complex transform.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include <cufft.h>
#include "common.cuh"

#define CUFFT_CHECK(call)                                                       \
    do {                                                                        \
        cufftResult r_ = (call);                                                \
        if (r_ != CUFFT_SUCCESS) {                                              \
            std::fprintf(stderr, "%s:%d: cuFFT error %d\n", __FILE__, __LINE__,  \
                         static_cast<int>(r_));                                 \
            std::exit(EXIT_FAILURE);                                            \
        }                                                                       \
    } while (0)

__global__ void normalise(cufftComplex *data, int n, float scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i].x *= scale;
        data[i].y *= scale;
    }
}

int main()
{
    const int n = 1024, batch = 4;
    std::vector<cufftComplex> signal(n);
    for (int i = 0; i < n; ++i) {
        signal[i].x = std::cos(2.0f * 3.14159265f * 8.0f * i / n);
        signal[i].y = 0.0f;
    }

    cufftComplex *dSignal = nullptr;
    CUDA_CHECK(cudaMalloc(&dSignal, n * batch * sizeof(cufftComplex)));
    CUDA_CHECK(cudaMemcpy(dSignal, signal.data(), n * sizeof(cufftComplex), cudaMemcpyHostToDevice));

    cufftHandle plan;
    CUFFT_CHECK(cufftPlan1d(&plan, n, CUFFT_C2C, 1));
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    CUFFT_CHECK(cufftSetStream(plan, stream));
    CUFFT_CHECK(cufftExecC2C(plan, dSignal, dSignal, CUFFT_FORWARD));
    CUFFT_CHECK(cufftExecC2C(plan, dSignal, dSignal, CUFFT_INVERSE));
    normalise<<<(n + 255) / 256, 256, 0, stream>>>(dSignal, n, 1.0f / n);
    CUDA_CHECK(cudaStreamSynchronize(stream));

    // Batched transforms over contiguous signals.
    cufftHandle many;
    int dims[1] = {n};
    CUFFT_CHECK(cufftPlanMany(&many, 1, dims, nullptr, 1, n, nullptr, 1, n, CUFFT_C2C, batch));
    CUFFT_CHECK(cufftExecC2C(many, dSignal, dSignal, CUFFT_FORWARD));

    // Real input, half-spectrum output.
    cufftReal *dReal = nullptr;
    cufftComplex *dSpectrum = nullptr;
    CUDA_CHECK(cudaMalloc(&dReal, n * sizeof(cufftReal)));
    CUDA_CHECK(cudaMalloc(&dSpectrum, (n / 2 + 1) * sizeof(cufftComplex)));
    CUDA_CHECK(cudaMemset(dReal, 0, n * sizeof(cufftReal)));
    cufftHandle r2c;
    CUFFT_CHECK(cufftPlan1d(&r2c, n, CUFFT_R2C, 1));
    CUFFT_CHECK(cufftExecR2C(r2c, dReal, dSpectrum));
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaMemcpy(signal.data(), dSignal, n * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
    std::printf("bin 8 magnitude %f\n", std::hypot(signal[8].x, signal[8].y));

    CUFFT_CHECK(cufftDestroy(plan));
    CUFFT_CHECK(cufftDestroy(many));
    CUFFT_CHECK(cufftDestroy(r2c));
    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(dSignal));
    CUDA_CHECK(cudaFree(dReal));
    CUDA_CHECK(cudaFree(dSpectrum));
    return 0;
}
