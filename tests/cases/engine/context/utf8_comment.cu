#include <cuda_runtime.h>
// héllo cudaMalloc ünïcode
cudaMalloc(&p, n);
