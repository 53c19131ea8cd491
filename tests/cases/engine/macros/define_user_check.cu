#include <cuda_runtime.h>
#define CUDA_SAFE_CALL(x) x
CUDA_SAFE_CALL(cudaFree(p));
