#include <cuda_runtime.h>
static int cudaDevices = 0;
int f() { return cudaDevices; }
