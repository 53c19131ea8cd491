// Row softmax in fp16 with warp max/sum reductions (attention scores), one warp per row.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff

__device__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, o));
  return v;
}

__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(FULL_MASK, v, o);
  return __shfl_sync(FULL_MASK, v, 0);
}

__global__ void softmax(const __half* in, __half* out, int cols) {
  const __half* row = in + blockIdx.x * cols;
  float m = -1e30f;
  for (int c = threadIdx.x; c < cols; c += 32) m = fmaxf(m, __half2float(row[c]));
  m = warp_max(m);
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += 32) s += __expf(__half2float(row[c]) - m);
  s = warp_sum(s);
  for (int c = threadIdx.x; c < cols; c += 32)
    out[blockIdx.x * cols + c] = __float2half(__expf(__half2float(row[c]) - m) / s);
}

int main() {
  __half *a, *b;
  cudaMalloc(&a, 8 * 128 * sizeof(__half));
  cudaMalloc(&b, 8 * 128 * sizeof(__half));
  softmax<<<8, 32>>>(a, b, 128);
  cudaDeviceSynchronize();
  cudaFree(a);
  cudaFree(b);
  return 0;
}
