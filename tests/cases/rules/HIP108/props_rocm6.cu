// cudaDeviceProp fields that no sampled hipDeviceProp_t has (HIP 5.2, ROCm 6.2-7.2), and
// ones that ROCm 6.x added (silent for the default target).
#include <cstdio>
#include <cuda_runtime.h>

int main()
{
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    cudaDeviceProp *p = &prop;
    std::printf("%d %d\n", prop.mpsEnabled, prop.hostNumaId);
    std::printf("%u %u\n", p->gpuPciDeviceID, p->gpuPciSubsystemID);
    std::printf("%d %d\n", prop.asyncEngineCount, p->unifiedAddressing);
    return 0;
}
