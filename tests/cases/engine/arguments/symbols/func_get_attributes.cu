#include <cuda_runtime.h>
__global__ void k(int* p);
cudaFuncAttributes a;
cudaFuncGetAttributes(&a, k);
