// Per-tensor fp8 (OCP e4m3) quantization with a scale, as in fp8 inference kernels.
#include <cuda_fp8.h>
#include <cuda_runtime.h>

__global__ void quantize(const float* x, __nv_fp8_e4m3* q, float inv_scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) q[i] = __nv_fp8_e4m3(x[i] * inv_scale);
}

__global__ void dequantize(const __nv_fp8_e4m3* q, float* x, float scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = float(q[i]) * scale;
}

int main() {
  float* x;
  __nv_fp8_e4m3* q;
  cudaMalloc(&x, 1024 * sizeof(float));
  cudaMalloc(&q, 1024 * sizeof(__nv_fp8_e4m3));
  quantize<<<4, 256>>>(x, q, 0.5f, 1024);
  dequantize<<<4, 256>>>(q, x, 2.0f, 1024);
  cudaDeviceSynchronize();
  cudaFree(x);
  cudaFree(q);
  return 0;
}
