#include <cuda_runtime.h>
dim3 grid(4), block(64);
k<<<grid, block>>>(d);
