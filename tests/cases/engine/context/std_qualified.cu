#include <cuda_runtime.h>
std::cudaStream_t s;
