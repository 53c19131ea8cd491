// memory_pinned.cu - page-locked host memory: cudaMallocHost, cudaHostAlloc
// with mapped and write-combined flags, and zero-copy access from a kernel.
#include <cstdio>
#include <cuda_runtime.h>
#include "common.cuh"

__global__ void incrementMapped(int *hostMapped, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        hostMapped[i] += 1;
    }
}

int main()
{
    const int n = 4096;
    const size_t bytes = n * sizeof(int);

    int *pinned = nullptr;
    CUDA_CHECK(cudaMallocHost(reinterpret_cast<void **>(&pinned), bytes));
    for (int i = 0; i < n; ++i) {
        pinned[i] = i;
    }

    int *device = nullptr;
    CUDA_CHECK(cudaMalloc(&device, bytes));
    CUDA_CHECK(cudaMemcpy(device, pinned, bytes, cudaMemcpyHostToDevice));

    // Mapped, portable memory that the kernel reads and writes directly.
    int *mapped = nullptr;
    CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void **>(&mapped), bytes,
                             cudaHostAllocMapped | cudaHostAllocPortable));
    for (int i = 0; i < n; ++i) {
        mapped[i] = 10 * i;
    }
    int *mappedDev = nullptr;
    CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void **>(&mappedDev), mapped, 0));
    incrementMapped<<<(n + 127) / 128, 128>>>(mappedDev, n);
    CUDA_CHECK_KERNEL();
    std::printf("mapped[7] = %d\n", mapped[7]);

    // Write-combined staging buffer: fast for the host to write, slow to read.
    float *staging = nullptr;
    CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void **>(&staging), bytes, cudaHostAllocWriteCombined));

    // Pin an existing allocation in place.
    static int registered[1024];
    CUDA_CHECK(cudaHostRegister(registered, sizeof(registered), cudaHostRegisterDefault));
    CUDA_CHECK(cudaMemcpy(registered, device, sizeof(registered), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaHostUnregister(registered));

    unsigned int flags = 0;
    CUDA_CHECK(cudaHostGetFlags(&flags, mapped));
    std::printf("mapped flags 0x%x\n", flags);

    CUDA_CHECK(cudaFreeHost(staging));
    CUDA_CHECK(cudaFreeHost(mapped));
    CUDA_CHECK(cudaFreeHost(pinned));
    CUDA_CHECK(cudaFree(device));
    return 0;
}
