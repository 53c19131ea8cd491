// Pick a fast path by compute capability at compile time; HIP sees the generic path.
#include <cstdio>
#include <cuda_runtime.h>

__device__ float fast_rsqrt(float x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  return rsqrtf(x);
#else
  return 1.0f / sqrtf(x);
#endif
}

__global__ void normalise(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= fast_rsqrt(v[i] * v[i] + 1e-6f);
}

int main() {
  float *v;
  cudaMallocManaged(&v, 256 * sizeof(float));
  for (int i = 0; i < 256; ++i) v[i] = float(i + 1);
  normalise<<<1, 256>>>(v, 256);
  cudaDeviceSynchronize();
  printf("%.3f\n", v[10]);
  return 0;
}
