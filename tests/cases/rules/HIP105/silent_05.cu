#include <cuda_runtime.h>
cudaTextureObject_t tex;
