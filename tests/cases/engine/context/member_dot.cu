#include <cuda_runtime.h>
obj.cudaMalloc(&p, n);
