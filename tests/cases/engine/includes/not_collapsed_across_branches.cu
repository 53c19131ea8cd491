#ifdef USE_DRIVER
#include <cuda.h>
#else
#include <cuda_runtime.h>
#endif
int x;
