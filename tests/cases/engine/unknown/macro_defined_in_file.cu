#include <cuda_runtime.h>
#define CUDA_CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) abort(); } while (0)
CUDA_CHECK(cudaDeviceSynchronize());
