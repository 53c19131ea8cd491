#include <cuda_runtime.h>
k<<<g, b, shm, stream>>>(x, y);
