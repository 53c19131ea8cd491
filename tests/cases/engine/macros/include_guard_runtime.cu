#include <cuda_runtime.h>
#ifdef __CUDA_RUNTIME_H__
cudaError_t f();
#endif
