#include <cuda_runtime.h>
cudaFrobnicate(p);
