#include <cuda_runtime.h>
__global__ void claim(unsigned *cursor, unsigned *owner, unsigned slots)
{
    owner[atomicInc_system(cursor, slots - 1)] = threadIdx.x;
    atomicDec_system(cursor + 1, slots - 1);
}
