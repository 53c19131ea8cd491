// device_query.cu - enumerate devices and print their main properties.
#include <cstdio>
#include <cuda_runtime.h>
#include "common.cuh"

static void printDevice(int index, const cudaDeviceProp &prop)
{
    std::printf("Device %d: %s\n", index, prop.name);
    std::printf("  compute capability   %d.%d\n", prop.major, prop.minor);
    std::printf("  global memory        %zu MiB\n", prop.totalGlobalMem >> 20);
    std::printf("  shared mem per block %zu bytes\n", prop.sharedMemPerBlock);
    std::printf("  registers per block  %d\n", prop.regsPerBlock);
    std::printf("  warp size            %d\n", prop.warpSize);
    std::printf("  max threads/block    %d\n", prop.maxThreadsPerBlock);
    std::printf("  max block dims       %d x %d x %d\n", prop.maxThreadsDim[0],
                prop.maxThreadsDim[1], prop.maxThreadsDim[2]);
    std::printf("  max grid dims        %d x %d x %d\n", prop.maxGridSize[0],
                prop.maxGridSize[1], prop.maxGridSize[2]);
    std::printf("  multiprocessors      %d\n", prop.multiProcessorCount);
    std::printf("  memory bus width     %d bits\n", prop.memoryBusWidth);
    std::printf("  L2 cache             %d bytes\n", prop.l2CacheSize);
    std::printf("  managed memory       %s\n", prop.managedMemory ? "yes" : "no");
    std::printf("  concurrent kernels   %s\n", prop.concurrentKernels ? "yes" : "no");
    std::printf("  async engines        %d\n", prop.asyncEngineCount);
}

int main()
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaErrorNoDevice || count == 0) {
        std::printf("No CUDA device found\n");
        return 0;
    }
    CUDA_CHECK(err);

    int driverVersion = 0;
    int runtimeVersion = 0;
    CUDA_CHECK(cudaDriverGetVersion(&driverVersion));
    CUDA_CHECK(cudaRuntimeGetVersion(&runtimeVersion));
    std::printf("Driver %d.%d, runtime %d.%d\n", driverVersion / 1000,
                (driverVersion % 100) / 10, runtimeVersion / 1000, (runtimeVersion % 100) / 10);

    for (int dev = 0; dev < count; ++dev) {
        cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
        printDevice(dev, prop);
    }

    CUDA_CHECK(cudaSetDevice(0));
    int current = -1;
    CUDA_CHECK(cudaGetDevice(&current));
    std::printf("Using device %d\n", current);
    return 0;
}
