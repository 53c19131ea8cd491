// A large parameter struct passed to the kernel as __grid_constant__ (CUDA 11.7+).
#include <cstdio>
#include <cuda_runtime.h>

struct Coefficients {
  float c[32];
  int order;
};

__global__ void polynomial(const __grid_constant__ Coefficients coef, const float *x, float *y,
                           int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.f;
  for (int k = coef.order; k >= 0; --k) acc = acc * x[i] + coef.c[k];
  y[i] = acc;
}

int main() {
  Coefficients coef = {};
  coef.order = 2;
  coef.c[0] = 1.f;
  coef.c[2] = 1.f;
  float *x, *y;
  cudaMallocManaged(&x, 256 * sizeof(float));
  cudaMallocManaged(&y, 256 * sizeof(float));
  for (int i = 0; i < 256; ++i) x[i] = 2.f;
  polynomial<<<1, 256>>>(coef, x, y, 256);
  cudaDeviceSynchronize();
  printf("%.1f\n", y[0]);
  return 0;
}
