// Particle update with helper_math-style operators on float3.
#include <cstdio>
#include <cuda_runtime.h>

inline __host__ __device__ void operator+=(float3 &a, float3 b) {
  a.x += b.x;
  a.y += b.y;
  a.z += b.z;
}

inline __host__ __device__ float3 operator*(float3 a, float s) {
  return make_float3(a.x * s, a.y * s, a.z * s);
}

__global__ void step(float3 *pos, const float3 *vel, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float3 p = pos[i];
  p += vel[i] * dt;
  pos[i] = p;
}

int main() {
  const int n = 1024;
  float3 *pos, *vel;
  cudaMallocManaged(&pos, n * sizeof(float3));
  cudaMallocManaged(&vel, n * sizeof(float3));
  for (int i = 0; i < n; ++i) {
    pos[i] = make_float3(0.f, 0.f, 0.f);
    vel[i] = make_float3(1.f, 2.f, 3.f);
  }
  step<<<n / 256, 256>>>(pos, vel, 0.1f, n);
  cudaDeviceSynchronize();
  printf("%.2f %.2f %.2f\n", pos[0].x, pos[0].y, pos[0].z);
  return 0;
}
