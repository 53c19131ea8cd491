#include <cuda_runtime.h>
#define WINDOW lo, hi
__global__ void widest(unsigned long long *out, unsigned long long lo, unsigned long long hi)
{
    out[0] = ullmax(WINDOW);
}
