#include <cuda_bf16.h>
// HIP 5.2 has no hip_bf16.h: nv_bfloat16 becomes the legacy hip_bfloat16 (hip/hip_bfloat16.h);
// the bf16x2 type and the conversion intrinsics have no HIP 5.2 counterpart: errors
__global__ void scale(nv_bfloat16* x, nv_bfloat162* y, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  nv_bfloat16 v = x[i];
  x[i] = __float2bfloat16(__bfloat162float(v) * s);
  nv_bfloat162 w = y[i];
  y[i] = __float22bfloat162_rn(make_float2(__low2float(w) * s, __high2float(w) * s));
}
