#include <cuda_runtime.h>
__constant__ int c;
cudaMemcpyToSymbol(c, &v, 4);
