#include <cuda_runtime.h>
int n; cudaGetDeviceCount(&n);
cudaSetDevice(0);
int d; cudaGetDevice(&d);
cudaDeviceReset();
