#include <cuda_runtime.h>
struct Counter {
    __device__ unsigned atomicInc_system(unsigned *p, unsigned n) { return atomicInc(p, n); }
};
__global__ void claim(unsigned *cursor, unsigned slots)
{
    Counter c;
    c.atomicInc_system(cursor, slots - 1);
    atomicInc(cursor, slots - 1);
}
