#include <cuda_runtime.h>
__device__ cuda::std::size_t n;
