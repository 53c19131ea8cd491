#include <cuda_runtime.h>
k<<<g, b, 64>>>(x);
