#include <cuda_runtime.h>
#if 0
k<<<1, 1>>>();
#endif
