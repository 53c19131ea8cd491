#include <cuda_runtime.h>
cudaGraph_t g;
cudaGraphCreate(&g, 0);
cudaGraphExec_t x;
cudaGraphLaunch(x, s);
