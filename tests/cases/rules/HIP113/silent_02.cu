#include <cuda_runtime.h>
#if !defined(__HIPCC__) && CUDA_VERSION < 11000
#error needs CUDA 11
#endif
