#include <cuda_runtime.h>
__global__ void k(unsigned *c) { atomicInc_system(c, 10u); }
