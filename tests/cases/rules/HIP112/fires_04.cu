#include <cuda_runtime.h>
__global__ void k(unsigned *p){ atomicDec_block(p, 4u); }
