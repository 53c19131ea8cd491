#include <cuda_runtime.h>
cudaMallocManaged(&p, n);
cudaMemPrefetchAsync(p, n, 0, s);
