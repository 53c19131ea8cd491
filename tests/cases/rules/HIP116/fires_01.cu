#include <cuda.h>
void halves(size_t n)
{
    CUdeviceptr base;
    cuMemAlloc(&base, n);
    CUdeviceptr upper = base + n / 2;
    cuMemsetD8(upper, 0, n / 2);
    cuMemFree(base);
}
