// Mapped (zero-copy) host memory and stream-ordered allocations through typed pointers:
// CUDA's T** templates accept them; HIP declares void** only.
#include <cuda_runtime.h>

__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

int main()
{
    const int n = 1024;
    float *host = nullptr;
    float *mapped = nullptr;
    cudaHostAlloc((void **)&host, n * sizeof(float), cudaHostAllocMapped);
    cudaHostGetDevicePointer(&mapped, host, 0);
    scale<<<n / 256, 256>>>(mapped, n);

    cudaStream_t stream;
    cudaStreamCreate(&stream);
    float *scratch = nullptr;
    cudaMallocAsync(&scratch, n * sizeof(float), stream);
    scale<<<n / 256, 256, 0, stream>>>(scratch, n);
    cudaFreeAsync(scratch, stream);

    cudaMemPool_t pool;
    cudaDeviceGetDefaultMemPool(&pool, 0);
    int *counts = nullptr;
    cudaMallocFromPoolAsync(&counts, n * sizeof(int), pool, stream);
    cudaFreeAsync(counts, stream);
    cudaStreamSynchronize(stream);
    cudaFreeHost(host);
    return 0;
}
