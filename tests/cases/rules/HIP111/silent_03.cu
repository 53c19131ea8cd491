#include <cuda_runtime.h>
__global__ void k(){}
void h(){ k<<<1, 1>>>(); cudaDeviceSynchronize(); }
