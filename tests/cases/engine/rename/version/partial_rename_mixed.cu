#include <cuda_runtime.h>
cudaStream_t s;
cudaMallocAsync(&p, n, s);
