// streams_overlap.cu - split work into chunks across several streams so that
// copies and kernels overlap; also stream priorities and callbacks.
#include <cstdio>
#include <cuda_runtime.h>
#include "common.cuh"

constexpr int kStreams = 4;

__global__ void process(float *chunk, int n, float bias)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = chunk[i];
        for (int k = 0; k < 16; ++k) {
            v = v * 0.99f + bias;
        }
        chunk[i] = v;
    }
}

static void CUDART_CB onChunkDone(void *userData)
{
    int *counter = static_cast<int *>(userData);
    ++*counter;
}

int main()
{
    const int n = 1 << 22;
    const int chunk = n / kStreams;
    float *host = nullptr;
    float *dev = nullptr;
    CUDA_CHECK(cudaMallocHost(&host, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dev, n * sizeof(float)));
    fillRamp(host, n);

    int lowest = 0, highest = 0;
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&lowest, &highest));

    cudaStream_t streams[kStreams];
    for (int s = 0; s < kStreams; ++s) {
        int priority = (s == 0) ? highest : lowest;
        CUDA_CHECK(cudaStreamCreateWithPriority(&streams[s], cudaStreamNonBlocking, priority));
    }

    int finished = 0;
    for (int s = 0; s < kStreams; ++s) {
        size_t offset = static_cast<size_t>(s) * chunk;
        CUDA_CHECK(cudaMemcpyAsync(dev + offset, host + offset, chunk * sizeof(float),
                                   cudaMemcpyHostToDevice, streams[s]));
        process<<<(chunk + 255) / 256, 256, 0, streams[s]>>>(dev + offset, chunk, 0.01f * s);
        CUDA_CHECK(cudaMemcpyAsync(host + offset, dev + offset, chunk * sizeof(float),
                                   cudaMemcpyDeviceToHost, streams[s]));
        CUDA_CHECK(cudaLaunchHostFunc(streams[s], onChunkDone, &finished));
    }

    for (int s = 0; s < kStreams; ++s) {
        cudaError_t q = cudaStreamQuery(streams[s]);
        if (q != cudaSuccess && q != cudaErrorNotReady) {
            CUDA_CHECK(q);
        }
        CUDA_CHECK(cudaStreamSynchronize(streams[s]));
        CUDA_CHECK(cudaStreamDestroy(streams[s]));
    }
    std::printf("%d chunks done, host[1] = %f\n", finished, host[1]);

    // The legacy default stream and the per-thread default stream.
    process<<<1, 32, 0, cudaStreamPerThread>>>(dev, 32, 1.0f);
    CUDA_CHECK(cudaStreamSynchronize(cudaStreamPerThread));

    CUDA_CHECK(cudaFree(dev));
    CUDA_CHECK(cudaFreeHost(host));
    return 0;
}
