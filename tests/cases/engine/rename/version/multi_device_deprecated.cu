#include <cuda_runtime.h>
cudaLaunchCooperativeKernelMultiDevice(p, 2, 0);
