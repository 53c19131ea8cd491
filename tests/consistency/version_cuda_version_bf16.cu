// Mixed-precision casts: bf16 outputs when the driver header says CUDA 11+, half otherwise.
#include <cstdio>
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#if CUDA_VERSION >= 11000
#include <cuda_bf16.h>
typedef __nv_bfloat16 low_t;
#define TO_LOW(x) __float2bfloat16(x)
#define FROM_LOW(x) __bfloat162float(x)
#else
typedef __half low_t;
#define TO_LOW(x) __float2half(x)
#define FROM_LOW(x) __half2float(x)
#endif

__global__ void narrow(const float *in, low_t *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = TO_LOW(in[i]);
}

__global__ void widen(const low_t *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = FROM_LOW(in[i]);
}

int main() {
  const int n = 1 << 14;
  float *a, *b;
  low_t *low;
  cudaMallocManaged(&a, n * sizeof(float));
  cudaMallocManaged(&b, n * sizeof(float));
  cudaMalloc(&low, n * sizeof(low_t));
  for (int i = 0; i < n; ++i) a[i] = 1.0f / (i + 1);
  narrow<<<n / 256, 256>>>(a, low, n);
  widen<<<n / 256, 256>>>(low, b, n);
  cudaDeviceSynchronize();
  printf("%g -> %g (%zu-byte storage)\n", a[2], b[2], sizeof(low_t));
  cudaFree(a);
  cudaFree(b);
  cudaFree(low);
  return 0;
}
