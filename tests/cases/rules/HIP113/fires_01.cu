#include <cuda_runtime.h>
#if CUDART_VERSION >= 11000
int v = 1;
#else
int v = 2;
#endif
