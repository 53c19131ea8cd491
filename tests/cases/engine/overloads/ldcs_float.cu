#include <cuda_runtime.h>
// approximate alternatives are suggested, never applied; HIP's __ldcs has no float overload
__global__ void copy(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = __ldcs(in + i);
  __stcg(out + i, x);
  __stwt(out + i, __ldcg(&in[i]));
}
