#include <cuda_runtime.h>
k<<<n >> 8, 256>>>(d);
