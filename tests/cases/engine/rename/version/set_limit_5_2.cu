#include <cuda_runtime.h>
cudaDeviceSetLimit(cudaLimitStackSize, 4096);
