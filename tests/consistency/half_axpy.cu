// Half-precision axpy with the cuda_fp16 intrinsics.
#include <cstdio>
#include <cuda_fp16.h>

__global__ void haxpy(__half a, const __half *x, __half *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __hfma(a, x[i], y[i]);
}

__global__ void init(__half *x, __half *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] = __float2half(1.0f);
    y[i] = __float2half(2.0f);
  }
}

int main() {
  const int n = 1024;
  __half *x, *y;
  cudaMalloc(&x, n * sizeof(__half));
  cudaMalloc(&y, n * sizeof(__half));
  init<<<n / 256, 256>>>(x, y, n);
  haxpy<<<n / 256, 256>>>(__float2half(0.5f), x, y, n);
  __half out;
  cudaMemcpy(&out, y, sizeof(__half), cudaMemcpyDeviceToHost);
  printf("%f\n", __half2float(out));
  return 0;
}
