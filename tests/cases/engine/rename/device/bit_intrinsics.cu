#include <cuda_runtime.h>
__device__ int f(unsigned x) { return __popc(x) + __clz(x); }
