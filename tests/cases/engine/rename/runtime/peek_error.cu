#include <cuda_runtime.h>
cudaError_t e = cudaPeekAtLastError();
