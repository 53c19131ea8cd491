#include <cuda_runtime.h>
#if !defined(CUDA_VERSION) || CUDA_VERSION < 11000
#error needs CUDA 11
#endif
