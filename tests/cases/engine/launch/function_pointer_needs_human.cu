#include <cuda_runtime.h>
(*fp)<<<1, 1>>>(x);
