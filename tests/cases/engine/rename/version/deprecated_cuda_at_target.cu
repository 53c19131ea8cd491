#include <cuda_runtime.h>
cudaThreadSynchronize();
