#include <cuda_runtime.h>
texture<float, 1, cudaReadModeElementType> tex;
