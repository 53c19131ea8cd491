#include <cuda_runtime.h>
void copy(cudaMemcpyKind kind);
