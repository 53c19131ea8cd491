#include <cuda.h>
CUdeviceptr p;
cuMemAlloc(&p, n);
cuMemcpyHtoD(p, h, n);
cuMemcpyDtoH(h, p, n);
cuMemFree(p);
