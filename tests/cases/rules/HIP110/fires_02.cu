#include <cuda_runtime.h>
__global__ void c(int *p) {}
__device__ void d(int *p) { c<<<1, 1>>>(p); }
