#include <cuda_runtime.h>
int f(cudaDeviceProp p){ return p.luid[0]; }
