// Warp-level reduction with __shfl_down_sync and one atomic per warp.
#include <cstdio>
#include <cuda_runtime.h>

__inline__ __device__ float warp_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void sum_kernel(const float *x, float *out, int n) {
  float v = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    v += x[i];
  v = warp_sum(v);
  if ((threadIdx.x & (warpSize - 1)) == 0) atomicAdd(out, v);
}

int main() {
  const int n = 4096;
  float *x, *out;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&out, sizeof(float));
  for (int i = 0; i < n; ++i) x[i] = 0.5f;
  *out = 0.f;
  sum_kernel<<<8, 256>>>(x, out, n);
  cudaDeviceSynchronize();
  printf("%f\n", *out);
  cudaFree(x);
  cudaFree(out);
  return 0;
}
