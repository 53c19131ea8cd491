#include <cuda_runtime.h>
cudaMemset(d, 0, n);
