#include <cuda_runtime.h>
cudaMemPool_t pool;
cudaDeviceGetDefaultMemPool(&pool, 0);
cudaMallocFromPoolAsync(&p, n, pool, s);
