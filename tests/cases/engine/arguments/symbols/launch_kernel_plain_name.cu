#include <cuda_runtime.h>
__global__ void k(int* p);
cudaLaunchKernel(k, g, b, args, 0, s);
