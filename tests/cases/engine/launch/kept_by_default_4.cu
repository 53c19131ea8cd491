#include <cuda_runtime.h>
k<<<g, b, shm, s>>>(x, y);
