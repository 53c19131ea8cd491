#include <cuda_runtime.h>
__global__ void k(unsigned *p){ atomicInc(p, 4u); }
