#include <cuda_runtime.h>
ptr->cudaFree(p);
