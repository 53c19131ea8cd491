#include <cuda_runtime.h>
cudaMallocAsync(&p, n, s);
cudaFreeAsync(p, s);
