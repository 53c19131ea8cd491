// events_timing.cu - time kernels with events and order two streams with
// cudaStreamWaitEvent.
#include <cstdio>
#include <cuda_runtime.h>
#include "common.cuh"

__global__ void busy(float *data, int n, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = data[i];
        for (int r = 0; r < rounds; ++r) {
            v = sinf(v) + 1.0f;
        }
        data[i] = v;
    }
}

static float timeRounds(float *dev, int n, int rounds)
{
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));

    CUDA_CHECK(cudaEventRecord(start, 0));
    busy<<<(n + 255) / 256, 256>>>(dev, n, rounds);
    CUDA_CHECK(cudaEventRecord(stop, 0));
    CUDA_CHECK(cudaEventSynchronize(stop));

    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    return ms;
}

int main()
{
    const int n = 1 << 20;
    float *dev = nullptr;
    CUDA_CHECK(cudaMalloc(&dev, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(dev, 0, n * sizeof(float)));

    for (int rounds = 1; rounds <= 64; rounds *= 4) {
        std::printf("%3d rounds: %.3f ms\n", rounds, timeRounds(dev, n, rounds));
    }

    // Producer/consumer ordering across streams without a host sync.
    cudaStream_t producer, consumer;
    CUDA_CHECK(cudaStreamCreate(&producer));
    CUDA_CHECK(cudaStreamCreate(&consumer));
    cudaEvent_t ready;
    CUDA_CHECK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));

    busy<<<n / 256, 256, 0, producer>>>(dev, n, 8);
    CUDA_CHECK(cudaEventRecord(ready, producer));
    CUDA_CHECK(cudaStreamWaitEvent(consumer, ready, 0));
    busy<<<n / 256, 256, 0, consumer>>>(dev, n, 8);

    while (cudaEventQuery(ready) == cudaErrorNotReady) {
        // spin until the producer has finished
    }
    CUDA_CHECK(cudaStreamSynchronize(consumer));

    CUDA_CHECK(cudaEventDestroy(ready));
    CUDA_CHECK(cudaStreamDestroy(producer));
    CUDA_CHECK(cudaStreamDestroy(consumer));
    CUDA_CHECK(cudaFree(dev));
    return 0;
}
