#include <cuda_runtime.h>
#undef cudaMalloc
