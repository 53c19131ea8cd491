#include <cuda_runtime.h>
__constant__ float c[4];
__device__ int d;
size_t n; cudaGetSymbolSize(&n, c);
