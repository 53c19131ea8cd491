#include <cuda_runtime.h>
cudaResourceDesc rd;
cudaTextureObject_t tex;
cudaArray_t arr;
