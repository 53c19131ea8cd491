#include <cuda_runtime.h>
cudaLaunchKernelEx(&cfg, k, x);
