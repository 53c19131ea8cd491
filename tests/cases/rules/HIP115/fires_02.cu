#include <cuda_runtime.h>
void f(cudaGraph_t g) { cudaGraphExec_t x; cudaGraphInstantiate(&x, g); }
