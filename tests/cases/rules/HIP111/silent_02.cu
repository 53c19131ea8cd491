#include <cuda_runtime.h>
__device__ int f(cudaStream_t s) { return s != 0; }
