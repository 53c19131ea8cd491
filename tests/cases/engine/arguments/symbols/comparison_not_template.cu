#include <cuda_runtime.h>
__global__ void k(int* p);
cudaMemcpyToSymbol(c, a < b ? x : y, 8);
