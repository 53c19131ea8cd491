// RMSNorm over bf16 rows: float accumulation, warp shuffle reduction, bf16 output (LLM layer).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void rmsnorm(const __nv_bfloat16* x, const __nv_bfloat16* w, __nv_bfloat16* y,
                        int cols, float eps) {
  const __nv_bfloat16* row = x + blockIdx.x * cols;
  float sum = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    float v = __bfloat162float(row[c]);
    sum += v * v;
  }
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffff, sum, o);
  __shared__ float part[32];
  if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.f;
    for (int i = 0; i < (int)(blockDim.x / 32); ++i) t += part[i];
    part[0] = rsqrtf(t / cols + eps);
  }
  __syncthreads();
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    y[blockIdx.x * cols + c] =
        __float2bfloat16(__bfloat162float(row[c]) * part[0] * __bfloat162float(w[c]));
}

int main() {
  __nv_bfloat16 *x, *w, *y;
  cudaMalloc(&x, 4096 * sizeof(__nv_bfloat16));
  cudaMalloc(&w, 1024 * sizeof(__nv_bfloat16));
  cudaMalloc(&y, 4096 * sizeof(__nv_bfloat16));
  rmsnorm<<<4, 256>>>(x, w, y, 1024, 1e-6f);
  cudaDeviceSynchronize();
  cudaFree(x);
  cudaFree(w);
  cudaFree(y);
  return 0;
}
