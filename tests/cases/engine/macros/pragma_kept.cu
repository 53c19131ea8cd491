#include <cuda_runtime.h>
#pragma unroll
for (int i = 0; i < 4; ++i) {}
