// Warp sums through a shuffle macro that picks the *_sync intrinsics on CUDA 9+ and the old ones before.
#include <cstdio>
#include <cuda_runtime.h>

#if CUDART_VERSION >= 9000
#define WARP_SHFL_DOWN(v, d) __shfl_down_sync(0xffffffffu, (v), (d))
#else
#define WARP_SHFL_DOWN(v, d) __shfl_down((v), (d))
#endif

__global__ void warp_sums(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int d = 16; d > 0; d >>= 1) v += WARP_SHFL_DOWN(v, d);
  if ((threadIdx.x & 31) == 0) out[i / 32] = v;
}

int main() {
  const int n = 1 << 12;
  float *x, *out;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&out, n / 32 * sizeof(float));
  for (int i = 0; i < n; ++i) x[i] = 1.0f;
  warp_sums<<<n / 128, 128>>>(x, out, n);
  cudaDeviceSynchronize();
  printf("%.0f\n", out[0]);
  cudaFree(x);
  cudaFree(out);
  return 0;
}
