#include <cuda_runtime.h>
void f(){ cudaDeviceFlushGPUDirectRDMAWrites(t, s); }
