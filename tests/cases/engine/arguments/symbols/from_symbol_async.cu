#include <cuda_runtime.h>
__constant__ float c[4];
__device__ int d;
cudaMemcpyFromSymbolAsync(h, c, 16, 0, cudaMemcpyDeviceToHost, s);
