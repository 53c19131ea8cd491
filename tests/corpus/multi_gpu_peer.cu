// multi_gpu_peer.cu - iterate over all devices with cudaSetDevice, enable
// peer access where possible and copy between GPUs; uses the include-guard
// driven helper header for both runtime and driver error codes.
#include <cstdio>
#include <vector>
#include <cuda.h>
#include <cuda_runtime.h>
#include "error_string_compat.cuh"

__global__ void iota(int *data, int base, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = base + i;
}

int main()
{
    int count = 0;
    checkCudaErrors(cudaGetDeviceCount(&count));
    if (count == 0) {
        std::printf("no devices\n");
        return 0;
    }
    const int n = 1 << 16;
    std::vector<int *> buffers(count, nullptr);
    std::vector<cudaStream_t> streams(count);

    for (int dev = 0; dev < count; ++dev) {
        checkCudaErrors(cudaSetDevice(dev));
        checkCudaErrors(cudaMalloc(&buffers[dev], n * sizeof(int)));
        checkCudaErrors(cudaStreamCreate(&streams[dev]));
        iota<<<n / 256, 256, 0, streams[dev]>>>(buffers[dev], dev * n, n);
        getLastCudaError("iota launch");
    }

    for (int dev = 0; dev < count; ++dev) {
        checkCudaErrors(cudaSetDevice(dev));
        checkCudaErrors(cudaStreamSynchronize(streams[dev]));
        for (int peer = 0; peer < count; ++peer) {
            if (peer == dev) continue;
            int canAccess = 0;
            checkCudaErrors(cudaDeviceCanAccessPeer(&canAccess, dev, peer));
            if (canAccess) {
                cudaError_t e = cudaDeviceEnablePeerAccess(peer, 0);
                if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled) {
                    checkCudaErrors(e);
                }
            }
        }
    }

    if (count > 1) {
        checkCudaErrors(cudaSetDevice(0));
        checkCudaErrors(cudaMemcpyPeerAsync(buffers[0], 0, buffers[1], 1, n * sizeof(int), streams[0]));
        checkCudaErrors(cudaStreamSynchronize(streams[0]));
    }

    // The primary context of device 0, seen through the driver API.
    CUdevice cuDev;
    checkCudaErrors(cuDeviceGet(&cuDev, 0));
    unsigned int flags = 0;
    int active = 0;
    checkCudaErrors(cuDevicePrimaryCtxGetState(cuDev, &flags, &active));
    std::printf("device 0 primary context active: %d\n", active);

    int first = -1;
    checkCudaErrors(cudaMemcpy(&first, buffers[0], sizeof(int), cudaMemcpyDeviceToHost));
    std::printf("buffer 0 starts with %d\n", first);

    for (int dev = 0; dev < count; ++dev) {
        checkCudaErrors(cudaSetDevice(dev));
        checkCudaErrors(cudaStreamDestroy(streams[dev]));
        checkCudaErrors(cudaFree(buffers[dev]));
    }
    return 0;
}
