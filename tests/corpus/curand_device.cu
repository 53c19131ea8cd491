// curand_device.cu - cuRAND device API: one curandState per thread, set up
// with curand_init and drawn from with curand_uniform and curand_normal in a
// Monte Carlo option-pricing kernel.
#include <cstdio>
#include <cuda_runtime.h>
#include <curand_kernel.h>
#include "common.cuh"

__global__ void setupStates(curandState *states, unsigned long long seed)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    // Same seed, different sequence per thread, no offset.
    curand_init(seed, id, 0, &states[id]);
}

__global__ void priceCall(curandState *states, int pathsPerThread, float s0, float strike,
                          float rate, float vol, float t, float *payoffSums)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState local = states[id];
    float drift = (rate - 0.5f * vol * vol) * t;
    float diffusion = vol * sqrtf(t);
    float sum = 0.0f;
    for (int p = 0; p < pathsPerThread; ++p) {
        float z = curand_normal(&local);
        float st = s0 * expf(drift + diffusion * z);
        sum += fmaxf(st - strike, 0.0f);
    }
    states[id] = local;
    payoffSums[id] = sum;
}

__global__ void uniformMean(curandState *states, float *means, int draws)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState local = states[id];
    float acc = 0.0f;
    for (int i = 0; i < draws; ++i) acc += curand_uniform(&local);
    unsigned int bits = curand(&local);
    states[id] = local;
    means[id] = acc / draws + 0.0f * bits;
}

__global__ void philoxDraws(float4 *out, unsigned long long seed)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandStatePhilox4_32_10_t state;
    curand_init(seed, id, 0, &state);
    out[id] = curand_uniform4(&state);
}

int main()
{
    const int threads = 256, blocks = 64, total = threads * blocks;
    curandState *states = nullptr;
    float *sums = nullptr;
    float4 *quads = nullptr;
    CUDA_CHECK(cudaMalloc(&states, total * sizeof(curandState)));
    CUDA_CHECK(cudaMallocManaged(&sums, total * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&quads, total * sizeof(float4)));

    setupStates<<<blocks, threads>>>(states, 42ULL);
    priceCall<<<blocks, threads>>>(states, 100, 100.0f, 105.0f, 0.05f, 0.2f, 1.0f, sums);
    CUDA_CHECK_KERNEL();

    double payoff = 0.0;
    for (int i = 0; i < total; ++i) payoff += sums[i];
    std::printf("call price ~ %f\n", payoff / (100.0 * total) * 0.951229);

    uniformMean<<<blocks, threads>>>(states, sums, 64);
    philoxDraws<<<blocks, threads>>>(quads, 7ULL);
    CUDA_CHECK_KERNEL();
    std::printf("uniform mean of thread 0: %f\n", sums[0]);

    CUDA_CHECK(cudaFree(states));
    CUDA_CHECK(cudaFree(sums));
    CUDA_CHECK(cudaFree(quads));
    return 0;
}
