#include <cuda_runtime.h>
puts("CUDA_CHECK failed");
