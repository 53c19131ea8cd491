#include <cuda_runtime.h>
__global__ void k(int* p);
cudaLaunchCooperativeKernel(reinterpret_cast<void*>(k), g, b, args);
