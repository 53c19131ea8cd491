// graph_capture.cu - record a stream's work into a CUDA graph with stream
// capture, instantiate it once and replay it many times.
#include <cstdio>
#include <cuda_runtime.h>
#include "common.cuh"

__global__ void axpb(float *x, float a, float b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i] + b;
}

__global__ void clampTo(float *x, float lo, float hi, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = fminf(hi, fmaxf(lo, x[i]));
}

int main()
{
    const int n = 1 << 16;
    const int blocks = (n + 255) / 256;
    float *dev = nullptr, *host = nullptr;
    CUDA_CHECK(cudaMalloc(&dev, n * sizeof(float)));
    CUDA_CHECK(cudaMallocHost(&host, n * sizeof(float)));
    fillRamp(host, n, 0.01f);

    cudaStream_t stream, side;
    CUDA_CHECK(cudaStreamCreate(&stream));
    CUDA_CHECK(cudaStreamCreate(&side));
    cudaEvent_t fork, join;
    CUDA_CHECK(cudaEventCreate(&fork));
    CUDA_CHECK(cudaEventCreate(&join));

    cudaGraph_t graph;
    CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    CUDA_CHECK(cudaMemcpyAsync(dev, host, n * sizeof(float), cudaMemcpyHostToDevice, stream));
    axpb<<<blocks, 256, 0, stream>>>(dev, 1.5f, -0.25f, n);
    // Fork into a second stream and join back, still inside the capture.
    CUDA_CHECK(cudaEventRecord(fork, stream));
    CUDA_CHECK(cudaStreamWaitEvent(side, fork, 0));
    clampTo<<<blocks / 2, 256, 0, side>>>(dev, 0.0f, 1.0f, n / 2);
    CUDA_CHECK(cudaEventRecord(join, side));
    clampTo<<<blocks / 2, 256, 0, stream>>>(dev + n / 2, 0.0f, 1.0f, n / 2);
    CUDA_CHECK(cudaStreamWaitEvent(stream, join, 0));
    CUDA_CHECK(cudaMemcpyAsync(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost, stream));

    cudaStreamCaptureStatus status;
    CUDA_CHECK(cudaStreamIsCapturing(stream, &status));
    CUDA_CHECK(cudaStreamEndCapture(stream, &graph));

    size_t nodeCount = 0;
    CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &nodeCount));
    std::printf("captured %zu nodes (status was %d)\n", nodeCount, static_cast<int>(status));

    cudaGraphExec_t exec;
    CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int iter = 0; iter < 10; ++iter) {
        CUDA_CHECK(cudaGraphLaunch(exec, stream));
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
    std::printf("host[100] = %f\n", host[100]);

    CUDA_CHECK(cudaGraphExecDestroy(exec));
    CUDA_CHECK(cudaGraphDestroy(graph));
    CUDA_CHECK(cudaEventDestroy(fork));
    CUDA_CHECK(cudaEventDestroy(join));
    CUDA_CHECK(cudaStreamDestroy(side));
    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFreeHost(host));
    CUDA_CHECK(cudaFree(dev));
    return 0;
}
