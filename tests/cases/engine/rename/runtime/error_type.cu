#include <cuda_runtime.h>
cudaError_t e = cudaGetLastError();
if (e != cudaSuccess) puts(cudaGetErrorString(e));
