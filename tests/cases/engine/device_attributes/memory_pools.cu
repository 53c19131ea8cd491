// Use stream-ordered allocation only where the device supports memory pools.
#include <cstdio>
#include <cuda_runtime.h>

int main()
{
    int count = 0;
    cudaGetDeviceCount(&count);
    for (int device = 0; device < count; ++device) {
        cudaDeviceProp prop;
        cudaGetDeviceProperties(&prop, device);
        std::printf("device %d (%s): memory pools %d\n", device, prop.name,
                    prop.memoryPoolsSupported);
    }
    return 0;
}
