#include <cuda_runtime.h>
k<<<1>>>(x);
