#include <cuda_runtime.h>
int pools(int device)
{
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, device);
    return prop.memoryPoolsSupported;
}
