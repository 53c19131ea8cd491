#include <cuda_runtime.h>
k<<<g, b>>>(f(a, b), c[i], (x, y));
