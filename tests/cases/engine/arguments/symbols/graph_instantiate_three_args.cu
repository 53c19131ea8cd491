#include <cuda_runtime.h>
cudaGraphInstantiate(&exec, graph, 0);
