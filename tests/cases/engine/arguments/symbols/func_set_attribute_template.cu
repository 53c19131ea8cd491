#include <cuda_runtime.h>
__global__ void k(int* p);
cudaFuncSetAttribute(kt<float, 4>, cudaFuncAttributeMaxDynamicSharedMemorySize, n);
