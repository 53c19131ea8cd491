#include <cuda_runtime.h>
__global__ void k(int v){ v = __shfl_down_sync(__activemask(), v, 1); }
