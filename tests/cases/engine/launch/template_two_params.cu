#include <cuda_runtime.h>
k<T, 4><<<g, b, 0, s>>>(d);
