#include <cuda_runtime.h>
__global__ void k(int* x, unsigned m) {
  int v = x[threadIdx.x];
  v += __shfl_sync(m, v, 0);
  v += __shfl_xor_sync(0x0000ffff, v, 1);
  x[threadIdx.x] = v;
}
