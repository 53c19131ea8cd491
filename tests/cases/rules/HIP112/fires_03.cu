#include <cuda_runtime.h>
__device__ void w() { __nanosleep(100); __syncwarp(); }
