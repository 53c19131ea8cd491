// fp16 GEMV with half2 arithmetic and a warp reduction per output row (decode-time matmul).
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void gemv(const __half2* w, const __half2* x, __half* y, int cols2) {
  const __half2* row = w + blockIdx.x * cols2;
  __half2 acc = __float2half2_rn(0.f);
  for (int c = threadIdx.x; c < cols2; c += 32) acc = __hfma2(row[c], x[c], acc);
  float s = __low2float(acc) + __high2float(acc);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (threadIdx.x == 0) y[blockIdx.x] = __float2half(s);
}

int main() {
  __half2 *w, *x;
  __half* y;
  cudaMalloc(&w, 64 * 256 * sizeof(__half2));
  cudaMalloc(&x, 256 * sizeof(__half2));
  cudaMalloc(&y, 64 * sizeof(__half));
  gemv<<<64, 32>>>(w, x, y, 256);
  cudaDeviceSynchronize();
  cudaFree(w);
  cudaFree(x);
  cudaFree(y);
  return 0;
}
