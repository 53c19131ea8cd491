#include <cuda_fp16.h>
// HIP has the __half and __half2 overloads
__global__ void k(const __half* in, const __half2* in2, __half* out, __half2* out2) {
  out[threadIdx.x] = __ldcs(in + threadIdx.x);
  out2[threadIdx.x] = __ldcg(&in2[threadIdx.x]);
}
