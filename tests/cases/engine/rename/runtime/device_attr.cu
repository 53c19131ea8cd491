#include <cuda_runtime.h>
cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 0);
