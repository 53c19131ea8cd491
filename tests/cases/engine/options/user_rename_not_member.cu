#include <cuda_runtime.h>
s.CUDA_CHECK = 1;
