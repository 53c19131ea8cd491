#include <cuda_runtime.h>
__global__ void k(){ float a[16]; }
