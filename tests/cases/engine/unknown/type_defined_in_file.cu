#include <cuda_runtime.h>
struct cudaBuffer { float* p; };
cudaBuffer b;
