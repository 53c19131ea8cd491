#include <cuda_runtime.h>
__global__ void k(float *x) { x[0] = 1.f; }
int main() { float *t; cudaMalloc(&t, 4); cudaDeviceSynchronize(); }
