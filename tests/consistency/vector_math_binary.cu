// float4 arithmetic through free binary operators only (no compound assignment).
#include <cstdio>
#include <cuda_runtime.h>

inline __host__ __device__ float4 operator+(float4 a, float4 b) {
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

inline __host__ __device__ float4 operator*(float s, float4 a) {
  return make_float4(s * a.x, s * a.y, s * a.z, s * a.w);
}

__global__ void lerp(const float4 *a, const float4 *b, float4 *out, float t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (1.f - t) * a[i] + t * b[i];
}

int main() {
  const int n = 256;
  float4 *a, *b, *out;
  cudaMallocManaged(&a, n * sizeof(float4));
  cudaMallocManaged(&b, n * sizeof(float4));
  cudaMallocManaged(&out, n * sizeof(float4));
  for (int i = 0; i < n; ++i) {
    a[i] = make_float4(0.f, 0.f, 0.f, 0.f);
    b[i] = make_float4(1.f, 1.f, 1.f, 1.f);
  }
  lerp<<<1, n>>>(a, b, out, 0.25f, n);
  cudaDeviceSynchronize();
  printf("%.2f\n", out[0].x);
  return 0;
}
