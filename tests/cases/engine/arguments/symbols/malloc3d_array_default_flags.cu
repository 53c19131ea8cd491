#include <cuda_runtime.h>
cudaMalloc3DArray(&arr, &desc, make_cudaExtent(4, 4, 4));
