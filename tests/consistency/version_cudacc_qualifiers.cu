// Host/device qualifiers chosen by the nvcc version macro, as portable math headers do.
#include <cstdio>
#include <cuda_runtime.h>

#if defined(__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ >= 9
#define MATH_FN __host__ __device__ __forceinline__
#else
#define MATH_FN inline
#endif

MATH_FN float smoothstep(float e0, float e1, float x) {
  float t = fminf(fmaxf((x - e0) / (e1 - e0), 0.0f), 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

__global__ void ramp(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = smoothstep(0.0f, float(n), float(i));
}

int main() {
  const int n = 1024;
  float *y;
  cudaMallocManaged(&y, n * sizeof(float));
  ramp<<<n / 256, 256>>>(y, n);
  cudaDeviceSynchronize();
  printf("%.3f %.3f\n", y[n / 2], smoothstep(0.0f, 1.0f, 0.5f));
  cudaFree(y);
  return 0;
}
