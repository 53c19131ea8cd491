#include <cuda.h>
#include <cuda_runtime.h>
void sync(cudaStream_t s) { cudaStreamSynchronize(s); }
int n; void sync(CUstream s) { cuStreamSynchronize(s); }
