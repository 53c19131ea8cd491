#include <cuda_runtime.h>
puts("mycudaMalloc cudaMallocX");
