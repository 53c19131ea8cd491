#include <cuda_runtime.h>
k<<<1, 2, 3, 4, 5>>>(x);
