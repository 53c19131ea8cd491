#include <cuda_runtime.h>
#if A
cudaSetDevice(0);
#elif B
cudaSetDevice(1);
#else
cudaDeviceReset();
#endif
