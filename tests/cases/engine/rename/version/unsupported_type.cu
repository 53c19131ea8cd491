#include <cuda_runtime.h>
cudaLaunchAttribute attr;
