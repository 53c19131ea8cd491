#include <cuda_runtime.h>
#if CUDA_VERSION >= 11000
int x;
#endif
