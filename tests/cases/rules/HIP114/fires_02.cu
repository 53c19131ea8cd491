#include <cuda_runtime.h>
__host__ __device__ void operator-=(int2 &a, const int2 &b) { a.x -= b.x; }
__global__ void k(int2 *p) { int2 acc = p[0]; acc -= p[1]; p[0] = acc; }
