#include <cuda_runtime.h>
// café cudaFree
cudaFree(p);
