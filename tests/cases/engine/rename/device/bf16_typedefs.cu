#include <cuda_bf16.h>
// cuda_bf16.h's typedef names map as the types they name: hip_bf16.h declares those
__global__ void scale(nv_bfloat16* x, nv_bfloat162* y, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  nv_bfloat16 v = x[i];
  x[i] = __float2bfloat16(__bfloat162float(v) * s);
  nv_bfloat162 w = y[i];
  y[i] = __float22bfloat162_rn(make_float2(__low2float(w) * s, __high2float(w) * s));
}
