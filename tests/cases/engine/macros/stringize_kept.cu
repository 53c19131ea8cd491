#include <cuda_runtime.h>
#define NAME(x) #x
const char* s = NAME(cudaMalloc);
