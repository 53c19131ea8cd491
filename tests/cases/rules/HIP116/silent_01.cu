#include <cuda.h>
void copy_back(void *host, size_t n, size_t offset)
{
    CUdeviceptr base;
    cuMemAlloc(&base, n + offset);
    int count = 3;
    count = count + 1;
    if (base != 0) {
        cuMemcpyDtoH(host, base, n);
    }
    cuMemFree(base);
}
