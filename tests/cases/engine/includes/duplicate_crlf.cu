#include <cuda.h>
#include <cuda_runtime.h>
int x;
