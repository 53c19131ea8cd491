#include <cuda_runtime.h>
::cudaFree(p);
