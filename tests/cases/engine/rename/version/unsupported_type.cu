#include <cuda_runtime.h>
cudaDeviceMask attr;
