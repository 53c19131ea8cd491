#include <cuda_runtime.h>
__global__ void k(unsigned *c) { atomicInc(c, 10u); }
