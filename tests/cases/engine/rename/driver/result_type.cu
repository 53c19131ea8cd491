#include <cuda.h>
CUresult r = cuInit(0);
if (r != CUDA_SUCCESS) {}
