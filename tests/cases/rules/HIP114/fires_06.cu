#include <cuda_runtime.h>
inline __host__ __device__ float operator*(float3 a, float3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
__global__ void k(const float3 *p, float *out) { float3 a = p[0]; out[0] = a * p[1]; }
