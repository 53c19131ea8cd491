// Near misses: fields HIP has, names in comments and strings, a look-alike field elsewhere.
#include <cstdio>
#include <cuda_runtime.h>

struct Engine { int asyncEngineCount; };

int main()
{
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    // prop.asyncEngineCount is not in HIP
    std::printf("%d %d %zu\n", prop.warpSize, prop.multiProcessorCount, prop.sharedMemPerBlock);
    std::printf("asyncEngineCount %d\n", prop.maxThreadsPerMultiProcessor);
    int asyncEngineCount = prop.major;
    return asyncEngineCount;
}
