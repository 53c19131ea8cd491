#include <cuda_runtime.h>
__global__ void k(int* p);
cudaLaunchKernel((void*)k, g, b, args, 0, s);
