#include <cuda_runtime.h>
#define CUDA_CHECK(x) x
CUDA_CHECK(cudaFree(p));
