// One all-pairs gravity step over float4 bodies (mass in w) with the shared vector-math header.
#include <cuda_runtime.h>

#include "common/helper_errors.h"
#include "common/helper_vecmath.h"

__global__ void accelerate(const float4 *body, float3 *accel, int n, float soften2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float3 me = make_float3(body[i]);
  float3 a = make_float3(0.0f);
  for (int j = 0; j < n; ++j) {
    float3 d = make_float3(body[j]) - me;
    float r2 = dot(d, d) + soften2;
    float inv = rsqrtf(r2);
    a += d * (body[j].w * inv * inv * inv);
  }
  accel[i] = a;
}

__global__ void integrate(float4 *body, float3 *vel, const float3 *accel, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  vel[i] += accel[i] * dt;
  vel[i] *= 0.999f;
  body[i] = make_float4(make_float3(body[i]) + vel[i] * dt, body[i].w);
}

int main() {
  const int n = 2048;
  float4 *body;
  float3 *vel, *accel;
  checkCudaErrors(cudaMallocManaged(&body, n * sizeof(float4)));
  checkCudaErrors(cudaMallocManaged(&vel, n * sizeof(float3)));
  checkCudaErrors(cudaMallocManaged(&accel, n * sizeof(float3)));
  for (int i = 0; i < n; ++i) {
    body[i] = make_float4(float(i % 16), float(i / 16 % 16), float(i / 256), 1.0f);
    vel[i] = make_float3(0.0f);
  }
  accelerate<<<n / 128, 128>>>(body, accel, n, 0.01f);
  integrate<<<n / 128, 128>>>(body, vel, accel, n, 0.001f);
  getLastCudaError("step");
  checkCudaErrors(cudaDeviceSynchronize());
  printf("|v0| = %g\n", length(vel[0]));
  checkCudaErrors(cudaFree(body));
  checkCudaErrors(cudaFree(vel));
  checkCudaErrors(cudaFree(accel));
  return 0;
}
