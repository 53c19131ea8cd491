#include <cuda_runtime.h>
if (cudaEventQuery(e) == cudaSuccess) {}
