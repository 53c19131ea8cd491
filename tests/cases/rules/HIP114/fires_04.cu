#include <cuda_runtime.h>
static int calls; __device__ void operator+=(float3 &a, float3 b) { a.x += b.x; }
__global__ void k(float3 *p) { float3 acc = p[0]; acc += p[1]; p[0] = acc; }
