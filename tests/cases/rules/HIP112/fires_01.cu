#include <cuda_runtime.h>
__global__ void k(unsigned *c) { atomicInc_block(c, 10u); }
