#include <cuda_runtime.h>
#if CUDART_VERSION >= 11020
cudaMallocAsync(&p, n, s);
#else
cudaMalloc(&p, n);
#endif
