#include <cuda_runtime.h>
__global__ void k(int* p);
cudaMemcpyToSymbol(table<int, 2>, h, 8);
