#include <cuda_runtime.h>
obj.k<<<1, 1>>>(x);
