#include <cuda_runtime.h>
// CUDA 12.8 takes the #else arm: so must HIP, which reads CUDART_VERSION as 0
#if CUDART_VERSION < 12050
static const int pool = 0;
#else
static const int pool = 1;
#endif
