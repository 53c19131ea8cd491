#include <cuda_runtime.h>
__global__ void k(const __grid_constant__ int n, int *o) { o[0] = n; }
