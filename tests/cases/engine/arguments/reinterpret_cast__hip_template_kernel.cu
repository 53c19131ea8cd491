#include <cuda_runtime.h>
template <typename T, int N>
__global__ void scale(T* p) { p[threadIdx.x] *= N; }
void tune() {
  cudaFuncSetAttribute(scale<float, 4>, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024);
  cudaFuncSetCacheConfig((const void*)scale<float, 4>, cudaFuncCachePreferShared);
}
