#include <cuda_runtime.h>
cudaHostRegister(p, n, 0);
