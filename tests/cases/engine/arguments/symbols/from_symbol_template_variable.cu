#include <cuda_runtime.h>
__global__ void k(int* p);
cudaMemcpyFromSymbol(h, table<int, 2>, 8);
