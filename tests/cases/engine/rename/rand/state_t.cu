#include <curand_kernel.h>
#include <cuda_runtime.h>
__device__ curandState_t s;
