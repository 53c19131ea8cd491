#include "cudaMalloc_wrappers.h"
#include <cuda_runtime.h>
puts("cudaMalloc");
