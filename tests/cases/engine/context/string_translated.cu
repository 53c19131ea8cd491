#include <cuda_runtime.h>
puts("cudaMalloc failed: cudaErrorInvalidValue");
