#include <cuda_runtime.h>
cudaGraphAddMemAllocNode(&node, g, nullptr, 0, &params);
