#include <cuda_runtime.h>
#define gpuMalloc cudaMalloc
#define gpuError_t cudaError_t
