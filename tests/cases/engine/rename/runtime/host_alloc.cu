#include <cuda_runtime.h>
cudaMallocHost(&h, n);
cudaFreeHost(h);
cudaHostAlloc(&h, n, cudaHostAllocDefault);
