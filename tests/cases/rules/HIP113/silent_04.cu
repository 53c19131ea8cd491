#include <cuda_runtime.h>
#if defined(__HIPCC__) || CUDART_VERSION >= 11000
int v = 1;
#endif
