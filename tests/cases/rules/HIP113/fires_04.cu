#include <cuda_runtime.h>
#if CUDART_VERSION >= 11000
int v = 1;
#endif
