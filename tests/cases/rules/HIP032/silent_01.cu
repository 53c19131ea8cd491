#include <cuda_runtime.h>
int pools(int device)
{
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, device);
    device = 0;
    return prop.memoryPoolsSupported;
}
