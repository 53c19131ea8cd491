#include <cuda_runtime.h>
cudaGetLastError();
