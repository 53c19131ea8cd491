#include <cuda.h>
cuInit(0);
CUdevice dev;
cuDeviceGet(&dev, 0);
int n; cuDeviceGetCount(&n);
