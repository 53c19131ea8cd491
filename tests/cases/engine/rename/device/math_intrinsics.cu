#include <cuda_runtime.h>
__device__ float f(float x) { return __expf(x) + __fdividef(x, 2.f) + rsqrtf(x); }
