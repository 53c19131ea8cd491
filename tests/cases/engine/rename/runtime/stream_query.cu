#include <cuda_runtime.h>
while (cudaStreamQuery(s) == cudaErrorNotReady) {}
