#include <cuda_runtime.h>
k<float><<<g, b>>>(d);
