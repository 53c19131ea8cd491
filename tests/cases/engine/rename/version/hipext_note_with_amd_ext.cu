#include <cuda_runtime.h>
cudaMalloc(&p, n);
