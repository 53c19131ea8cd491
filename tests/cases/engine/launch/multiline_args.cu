#include <cuda_runtime.h>
k<<<g, b>>>(a,
    b,
    c);
