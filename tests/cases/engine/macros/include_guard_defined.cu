#include <cuda_runtime.h>
#if defined(__DRIVER_TYPES_H__) && defined(__CUDA_RUNTIME_API_H__)
int x;
#endif
