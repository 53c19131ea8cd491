#include <cuda_bf16.h>
// bf16 as storage, converted with the type's own constructor and float conversion: HIP 5.2
// has these in the legacy hip_bfloat16 (hip/hip_bfloat16.h), 6.3 in __hip_bfloat16
__global__ void scale(const nv_bfloat16* x, __nv_bfloat16* y, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = static_cast<float>(x[i]);
  y[i] = __nv_bfloat16(v * s);
}
