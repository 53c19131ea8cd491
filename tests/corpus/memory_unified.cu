// memory_unified.cu - managed memory shared by host and device, with
// prefetch and advice hints whose signatures changed in CUDA 13.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
#include "common.cuh"

__global__ void saxpyManaged(float a, const float *x, float *y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        y[i] = a * x[i] + y[i];
    }
}

static void prefetchTo(const void *ptr, size_t bytes, int device, cudaStream_t stream)
{
#if CUDA_VERSION >= 13000
    cudaMemLocation loc = {};
    loc.type = (device == cudaCpuDeviceId) ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
    loc.id = (device == cudaCpuDeviceId) ? 0 : device;
    CUDA_CHECK(cudaMemPrefetchAsync(ptr, bytes, loc, 0, stream));
#else
    CUDA_CHECK(cudaMemPrefetchAsync(ptr, bytes, device, stream));
#endif
}

int main()
{
    const int n = 1 << 18;
    float *x = nullptr;
    float *y = nullptr;
    CUDA_CHECK(cudaMallocManaged(&x, n * sizeof(float)));
    CUDA_CHECK(cudaMallocManaged(reinterpret_cast<void **>(&y), n * sizeof(float), cudaMemAttachGlobal));

    for (int i = 0; i < n; ++i) {
        x[i] = 1.0f;
        y[i] = 2.0f;
    }

    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    int concurrent = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, device));

    if (concurrent) {
#if CUDA_VERSION >= 13000
        cudaMemLocation where = {cudaMemLocationTypeDevice, device};
        CUDA_CHECK(cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseSetReadMostly, where));
#else
        CUDA_CHECK(cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseSetReadMostly, device));
#endif
        prefetchTo(x, n * sizeof(float), device, 0);
        prefetchTo(y, n * sizeof(float), device, 0);
    }

    saxpyManaged<<<64, 256>>>(3.0f, x, y, n);
    CUDA_CHECK_KERNEL();

    if (concurrent) {
        prefetchTo(y, n * sizeof(float), cudaCpuDeviceId, 0);
        CUDA_CHECK(cudaDeviceSynchronize());
    }
    std::printf("y[0] = %f (expect 5)\n", y[0]);

    CUDA_CHECK(cudaFree(x));
    CUDA_CHECK(cudaFree(y));
    return 0;
}
