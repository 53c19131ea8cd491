#include <cuda_bf16.h>
// HIP's __float2bfloat16 rounds to nearest even: the exact alternative of __float2bfloat16_rn
__global__ void cvt(__nv_bfloat16* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __float2bfloat16_rn(in[i]);
}
