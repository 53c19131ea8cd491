#include <cuda_runtime.h>
// a 64-bit mask is left alone
__global__ void k(float* x) { x[0] += __shfl_xor_sync(0xffffffffffffffffull, x[0], 16); }
