#include <cuda_runtime.h>
#ifdef USE_ASYNC
cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s);
#else
cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);
#endif
