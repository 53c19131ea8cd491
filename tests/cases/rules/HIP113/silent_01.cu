#include <cuda_runtime.h>
#if CUDART_VERSION >= 99000
int v = 1;
#endif
