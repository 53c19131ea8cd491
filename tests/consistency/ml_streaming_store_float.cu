// Element-wise GELU with scalar streaming stores and a trap on a bad launch.
#include <cuda_runtime.h>

__global__ void gelu(const float* in, float* out, int n) {
  if (blockDim.x > 1024) __trap();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  float y = 0.5f * x * (1.f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
  __stcs(out + i, y);
}

int main() {
  float *a, *b;
  cudaMalloc(&a, 4096 * sizeof(float));
  cudaMalloc(&b, 4096 * sizeof(float));
  gelu<<<16, 256>>>(a, b, 4096);
  cudaDeviceSynchronize();
  cudaFree(a);
  cudaFree(b);
  return 0;
}
