#include <cuda_runtime.h>
int x;
