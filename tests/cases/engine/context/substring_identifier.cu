#include <cuda_runtime.h>
int cudaMallocCount = 0;
my_cudaFree(p);
