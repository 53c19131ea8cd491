#include <cuda_runtime.h>
s.cudaStream_t = 0;
