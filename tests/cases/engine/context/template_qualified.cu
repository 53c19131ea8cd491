#include <cuda_runtime.h>
Wrap<int>::cudaFree(p);
