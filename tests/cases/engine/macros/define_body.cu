#include <cuda_runtime.h>
#define ALLOC(p, n) cudaMalloc(&(p), (n))
