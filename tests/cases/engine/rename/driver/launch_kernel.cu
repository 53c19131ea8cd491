#include <cuda.h>
cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, 0, args, nullptr);
