#include <cuda_runtime.h>
k<<<g, b, 0, cudaStreamPerThread>>>(d);
