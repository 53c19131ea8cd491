#include <cuda_runtime.h>
void f(){ cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1); }
