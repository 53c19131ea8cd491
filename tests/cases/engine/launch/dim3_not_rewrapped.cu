#include <cuda_runtime.h>
k<<<dim3(4, 4), dim3(16, 16)>>>(d);
