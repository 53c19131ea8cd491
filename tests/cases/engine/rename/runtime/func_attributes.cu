#include <cuda_runtime.h>
cudaFuncAttributes attr;
cudaFuncSetCacheConfig(k, cudaFuncCachePreferShared);
