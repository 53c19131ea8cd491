#include <cuda_runtime.h>
namespace cuda { using size_t = unsigned long; }
__device__ cuda::size_t n;
