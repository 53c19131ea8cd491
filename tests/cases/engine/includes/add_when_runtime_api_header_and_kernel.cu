#include <cuda_runtime_api.h>
__global__ void k() {}
