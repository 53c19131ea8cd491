#include <cuda_runtime.h>
CUDA_CHECK(cudaFree(p));
CUDA_CHECK(cudaFree(q));
