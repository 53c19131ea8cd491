#include <cuda_runtime.h>
k<(N > 4)><<<g, b>>>(d);
