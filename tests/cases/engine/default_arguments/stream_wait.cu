// A consumer stream waits on a producer's event with the two-argument form.
#include <cuda_runtime.h>

__global__ void produce(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = i;
}

__global__ void consume(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}

int main()
{
    const int n = 1 << 16;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaStream_t producer, consumer;
    cudaStreamCreate(&producer);
    cudaStreamCreate(&consumer);
    cudaEvent_t done;
    cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
    produce<<<n / 256, 256, 0, producer>>>(x, n);
    cudaEventRecord(done, producer);
    cudaStreamWaitEvent(consumer, done);
    consume<<<n / 256, 256, 0, consumer>>>(x, y, n);
    cudaStreamWaitEvent(consumer, done, 0);
    cudaStreamSynchronize(consumer);
    cudaFree(x);
    cudaFree(y);
    return 0;
}
