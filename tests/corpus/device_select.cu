// device_select.cu - pick the device with the most multiprocessors and
// read attributes one at a time with cudaDeviceGetAttribute.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
#include "common.cuh"

struct DeviceScore {
    int device;
    int smCount;
    int clockKHz;
};

static DeviceScore scoreDevice(int dev)
{
    DeviceScore s{dev, 0, 0};
    CUDA_CHECK(cudaDeviceGetAttribute(&s.smCount, cudaDevAttrMultiProcessorCount, dev));
#if CUDA_VERSION >= 13000
    // CUDA 13 dropped cudaDeviceProp::clockRate; the attribute remains.
    CUDA_CHECK(cudaDeviceGetAttribute(&s.clockKHz, cudaDevAttrClockRate, dev));
#else
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    s.clockKHz = prop.clockRate;
#endif
    return s;
}

static int pickBestDevice()
{
    int count = 0;
    CUDA_CHECK(cudaGetDeviceCount(&count));
    int best = 0;
    long long bestScore = -1;
    for (int dev = 0; dev < count; ++dev) {
        DeviceScore s = scoreDevice(dev);
        long long score = static_cast<long long>(s.smCount) * s.clockKHz;
        if (score > bestScore) {
            bestScore = score;
            best = dev;
        }
    }
    return best;
}

__global__ void touch(int *flag)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        *flag = 1;
    }
}

int main()
{
    int dev = pickBestDevice();
    CUDA_CHECK(cudaSetDevice(dev));
    CUDA_CHECK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));

    int major = 0, minor = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    std::printf("selected device %d (sm_%d%d)\n", dev, major, minor);

    size_t freeBytes = 0, totalBytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    std::printf("free %zu of %zu bytes\n", freeBytes, totalBytes);

    int *flag = nullptr;
    CUDA_CHECK(cudaMalloc(&flag, sizeof(int)));
    touch<<<1, 32>>>(flag);
    CUDA_CHECK_KERNEL();
    CUDA_CHECK(cudaFree(flag));
    CUDA_CHECK(cudaDeviceReset());
    return 0;
}
