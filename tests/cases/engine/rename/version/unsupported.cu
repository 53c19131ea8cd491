#include <cuda_runtime.h>
cudaDeviceFlushGPUDirectRDMAWrites(t, s);
