#include <cuda_runtime.h>
__host__ __device__ void operator*=(float3 &a, float s) { a.x *= s; }
