#include <cuda_runtime.h>
__constant__ float c[4];
__device__ int d;
cudaMemcpyToSymbol("c", h, 16);
