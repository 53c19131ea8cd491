#include <cuda_runtime.h>
#ifndef __HIP_PLATFORM_AMD__
__device__ void operator+=(float3 &a, float3 b){ a.x += b.x; }
#endif
