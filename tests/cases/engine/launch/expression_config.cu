#include <cuda_runtime.h>
k<<<(n + 255) / 256, 256>>>(d, n);
