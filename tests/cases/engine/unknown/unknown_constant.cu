#include <cuda_runtime.h>
int v = CUDA_FOO_BAR;
