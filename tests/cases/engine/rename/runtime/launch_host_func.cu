#include <cuda_runtime.h>
cudaLaunchHostFunc(s, cb, nullptr);
