#include <cuda_runtime.h>
__global__ void k(unsigned *p){ atomicInc_system(p, 4u); }
