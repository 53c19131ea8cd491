#include <cuda_runtime.h>
__device__ int f(int* p) { return atomicCAS(p, 0, 1); }
