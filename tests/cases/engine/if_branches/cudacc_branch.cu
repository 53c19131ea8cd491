#include <cuda_runtime.h>
#ifdef __CUDACC__
__global__ void k() { __syncthreads(); }
#endif
