#include <cuda_runtime.h>
__global__ void c(int *p){}
void h(int *p){ c<<<1, 1>>>(p); }
