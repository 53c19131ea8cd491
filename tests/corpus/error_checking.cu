// error_checking.cu - the usual ways programs test cudaError_t: a macro, a
// function, a getLastError/peek pair and a helper header that keys off the
// runtime's include guards.
#include <cstdio>
#include <cuda_runtime.h>
#include "error_string_compat.cuh"

#define CHECK_CUDA(expr)                                                        \
    {                                                                           \
        cudaError_t status = (expr);                                            \
        if (status != cudaSuccess) {                                            \
            printf("Error %d (%s) at %s:%d\n", status, cudaGetErrorString(status), \
                   __FILE__, __LINE__);                                         \
            return status;                                                      \
        }                                                                       \
    }

static inline cudaError_t checkCuda(cudaError_t result)
{
#if defined(DEBUG) || defined(_DEBUG)
    if (result != cudaSuccess) {
        fprintf(stderr, "CUDA Runtime Error: %s\n", cudaGetErrorString(result));
    }
#endif
    return result;
}

__global__ void outOfBounds(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] = i;
    }
}

static cudaError_t runChecked(int n)
{
    int *dev = nullptr;
    CHECK_CUDA(cudaMalloc(&dev, n * sizeof(int)));
    // An invalid configuration: too many threads per block.
    outOfBounds<<<1, 4096>>>(dev, n);
    cudaError_t launchErr = cudaPeekAtLastError();
    if (launchErr == cudaErrorInvalidConfiguration) {
        printf("caught bad launch: %s\n", cudaGetErrorName(launchErr));
        (void)cudaGetLastError(); // clear the sticky-free error
    }
    outOfBounds<<<(n + 127) / 128, 128>>>(dev, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaFree(dev));
    return cudaSuccess;
}

int main()
{
    checkCudaErrors(cudaSetDevice(0));
    checkCuda(cudaFree(nullptr));

    cudaError_t err = runChecked(1000);
    if (err != cudaSuccess) {
        fprintf(stderr, "runChecked failed: %s\n", errorString(err));
        return 1;
    }
    getLastCudaError("after runChecked");

    void *tooBig = nullptr;
    err = cudaMalloc(&tooBig, ~size_t(0) >> 1);
    if (err == cudaErrorMemoryAllocation) {
        printf("expected allocation failure: %s\n", cudaGetErrorString(err));
        cudaGetLastError();
    }
    return 0;
}
