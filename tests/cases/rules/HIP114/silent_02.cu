#include <cuda_runtime.h>
__host__ __device__ int2 operator-(int2 a, int2 b) { return a; }
__global__ void k(int2 *p) { int2 acc = p[0]; p[0] = acc - p[1]; }
