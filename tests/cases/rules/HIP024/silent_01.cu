#include <cuda_runtime.h>
// 64-bit masks and masks of unknown type are not reported
__global__ void k(int* x, unsigned long long m, int lanes) {
  int v = x[threadIdx.x];
  v += __shfl_sync(m, v, 0);
  v += __shfl_sync(__activemask(), v, 0);
  v += __shfl_sync((1ull << lanes) - 1, v, 0);
  x[threadIdx.x] = v;
}
