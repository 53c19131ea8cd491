#include <cuda_runtime.h>
k<<<g /* grid */, b>>>(d);
