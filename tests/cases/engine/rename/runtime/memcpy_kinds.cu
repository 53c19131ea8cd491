#include <cuda_runtime.h>
cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);
cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost);
