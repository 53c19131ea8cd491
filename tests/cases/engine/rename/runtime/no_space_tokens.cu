#include <cuda_runtime.h>
x=cudaMalloc(&p,n)+cudaFree(p);
