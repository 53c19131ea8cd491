#include <cuda_runtime.h>
#ifdef __cuda_cuda_h__
int g(CUresult r);
#endif
