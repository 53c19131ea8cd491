#include <cuda_runtime.h>
__global__ void k(const float* in, float* out, const int4* v, int4* w) {
  out[threadIdx.x] = __ldcs(in + threadIdx.x);
  w[threadIdx.x] = __ldcg(&v[threadIdx.x]);
}
