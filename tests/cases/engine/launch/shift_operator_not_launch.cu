#include <cuda_runtime.h>
int a = x << 3;
int b = y >> 2;
