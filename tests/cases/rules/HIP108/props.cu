// cudaDeviceProp fields with no hipDeviceProp_t field in HIP 5.2 (props.target.json: 5.2).
#include <cstdio>
#include <cuda_runtime.h>

int main()
{
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    cudaDeviceProp *p = &prop;
    std::printf("%d %d\n", prop.asyncEngineCount, prop.unifiedAddressing);
    std::printf("%zu %d\n", p->sharedMemPerMultiprocessor, p->persistingL2CacheMaxSize);
    std::printf("%d\n", prop.accessPolicyMaxWindowSize);
    return 0;
}
