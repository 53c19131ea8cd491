#include <cuda_runtime.h>
cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s);
