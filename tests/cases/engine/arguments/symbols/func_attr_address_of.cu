#include <cuda_runtime.h>
__global__ void k(int* p);
cudaFuncGetAttributes(&a, &k);
