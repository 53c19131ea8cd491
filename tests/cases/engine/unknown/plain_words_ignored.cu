#include <cuda_runtime.h>
int cudas = 1, cu = 2, Cuda = 3, cuda = 4;
