#include <cuda_runtime.h>
if (e == cudaErrorInvalidValue || e == cudaErrorNotReady) {}
