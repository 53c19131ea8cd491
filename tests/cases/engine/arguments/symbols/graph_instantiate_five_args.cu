#include <cuda_runtime.h>
cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0);
