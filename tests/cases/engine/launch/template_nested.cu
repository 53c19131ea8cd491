#include <cuda_runtime.h>
k<vec<float, 2>><<<g, b>>>(d);
