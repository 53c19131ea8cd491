#include <cuda_runtime.h>
cudaMalloc3DArray(&arr, &desc, ext, cudaArrayDefault);
