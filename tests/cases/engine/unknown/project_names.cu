#include <cuda_runtime.h>
CUDA_CHECK(cudaFree(p));
