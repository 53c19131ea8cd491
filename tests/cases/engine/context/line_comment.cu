#include <cuda_runtime.h>
// call cudaMalloc here
cudaMalloc(&p, n); // cudaMalloc
