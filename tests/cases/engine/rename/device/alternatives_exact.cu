#include <cuda_runtime.h>
// exact alternatives (mappings/alternatives.tsv) are applied: __trap, the streaming store
__global__ void scale(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n < 0) __trap();
  if (i >= n) return;
  __stcs(out + i, in[i] * 2.0f);
  __stcs(&out[i + n], in[i]);
}
