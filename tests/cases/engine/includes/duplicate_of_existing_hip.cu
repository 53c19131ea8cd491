#include <hip/hip_runtime.h>
#include <cuda_runtime.h>
int x;
