// Print the properties that matter for scheduling, for every device.
#include <cstdio>
#include <cuda_runtime.h>

int main() {
  int count = 0;
  cudaGetDeviceCount(&count);
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, d);
    printf("%d: %s, %d SMs, warp %d, %zu bytes shared/block\n", d, prop.name,
           prop.multiProcessorCount, prop.warpSize, prop.sharedMemPerBlock);
    printf("   copy engines: %d, unified addressing: %d\n", prop.asyncEngineCount,
           prop.unifiedAddressing);
  }
  return 0;
}
