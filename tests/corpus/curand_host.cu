// curand_host.cu - cuRAND host API: create a generator, seed it, fill device
// buffers with uniform and normal numbers and estimate pi.
#include <cstdio>
#include <cuda_runtime.h>
#include <curand.h>
#include "common.cuh"

#define CURAND_CHECK(call)                                                      \
    do {                                                                        \
        curandStatus_t st_ = (call);                                            \
        if (st_ != CURAND_STATUS_SUCCESS) {                                     \
            std::fprintf(stderr, "%s:%d: cuRAND error %d\n", __FILE__, __LINE__, \
                         static_cast<int>(st_));                                \
            std::exit(EXIT_FAILURE);                                            \
        }                                                                       \
    } while (0)

__global__ void countInside(const float *xy, int pairs, unsigned int *inside)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < pairs) {
        float x = xy[2 * i], y = xy[2 * i + 1];
        if (x * x + y * y <= 1.0f) atomicAdd(inside, 1u);
    }
}

int main()
{
    const int pairs = 1 << 20;
    float *dUniform = nullptr, *dNormal = nullptr;
    unsigned int *dInside = nullptr;
    CUDA_CHECK(cudaMalloc(&dUniform, 2 * pairs * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dNormal, pairs * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dInside, sizeof(unsigned int)));
    CUDA_CHECK(cudaMemset(dInside, 0, sizeof(unsigned int)));

    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));

    curandGenerator_t gen;
    CURAND_CHECK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10));
    CURAND_CHECK(curandSetStream(gen, stream));
    CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
    CURAND_CHECK(curandSetGeneratorOffset(gen, 0ULL));
    CURAND_CHECK(curandGenerateUniform(gen, dUniform, 2 * pairs));
    CURAND_CHECK(curandGenerateNormal(gen, dNormal, pairs, 0.0f, 1.0f));

    countInside<<<(pairs + 255) / 256, 256, 0, stream>>>(dUniform, pairs, dInside);
    CUDA_CHECK(cudaGetLastError());

    unsigned int inside = 0;
    CUDA_CHECK(cudaMemcpyAsync(&inside, dInside, sizeof(inside), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    std::printf("pi ~ %f\n", 4.0 * inside / pairs);

    // A quasi-random generator on the host side for comparison.
    curandGenerator_t hostGen;
    CURAND_CHECK(curandCreateGeneratorHost(&hostGen, CURAND_RNG_QUASI_SOBOL32));
    CURAND_CHECK(curandSetQuasiRandomGeneratorDimensions(hostGen, 2));
    float hostValues[16];
    CURAND_CHECK(curandGenerateUniform(hostGen, hostValues, 16));
    std::printf("first sobol value %f\n", hostValues[0]);

    CURAND_CHECK(curandDestroyGenerator(hostGen));
    CURAND_CHECK(curandDestroyGenerator(gen));
    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(dUniform));
    CUDA_CHECK(cudaFree(dNormal));
    CUDA_CHECK(cudaFree(dInside));
    return 0;
}
