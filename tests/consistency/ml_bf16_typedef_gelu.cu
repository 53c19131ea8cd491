// bf16 activation with the nv_bfloat16 / nv_bfloat162 typedef names and paired math.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void silu2(const nv_bfloat162* x, nv_bfloat162* y, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n2) return;
  float2 f = __bfloat1622float2(x[i]);
  f.x = f.x / (1.f + __expf(-f.x));
  f.y = f.y / (1.f + __expf(-f.y));
  y[i] = __float22bfloat162_rn(f);
}

int main() {
  nv_bfloat162 *a, *b;
  cudaMalloc(&a, 512 * sizeof(nv_bfloat162));
  cudaMalloc(&b, 512 * sizeof(nv_bfloat162));
  silu2<<<2, 256>>>(a, b, 512);
  cudaDeviceSynchronize();
  cudaFree(a);
  cudaFree(b);
  return 0;
}
