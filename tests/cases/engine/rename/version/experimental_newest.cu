#include <cuda_runtime.h>
cudaGraphExecGetFlags(x, &f);
