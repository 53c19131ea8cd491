#include <cuda_runtime.h>
cudaHostAlloc(&h, n, cudaHostAllocMapped);
