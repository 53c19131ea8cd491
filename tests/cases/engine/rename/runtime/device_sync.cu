#include <cuda_runtime.h>
cudaDeviceSynchronize();
