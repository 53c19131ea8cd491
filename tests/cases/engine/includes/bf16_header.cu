#include <cuda_bf16.h>
__device__ __nv_bfloat16 twice(__nv_bfloat16 x) { return __hmul(x, __float2bfloat16(2.0f)); }
