#include <cuda_runtime.h>
__global__ void c(int *p){}
__global__ void k(int *p){ c<<<1, 1>>>(p); }
