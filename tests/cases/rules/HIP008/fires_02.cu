#include <cuda_runtime.h>
cudaProfilerStart();
