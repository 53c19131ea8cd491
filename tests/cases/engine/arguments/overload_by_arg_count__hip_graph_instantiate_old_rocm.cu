#include <cuda_runtime.h>
void inst(cudaGraphExec_t* exec, cudaGraph_t g) {
  cudaGraphInstantiate(exec, g, 0);
}
