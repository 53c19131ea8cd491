// CUDA 12 style graph instantiation: cudaGraphInstantiate(&exec, graph) with default flags.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void bump(int *c) { atomicAdd(c, 1); }

int main() {
  int *counter;
  cudaMallocManaged(&counter, sizeof(int));
  *counter = 0;
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  bump<<<1, 64, 0, s>>>(counter);
  cudaStreamEndCapture(s, &graph);
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, graph);
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  printf("%d\n", *counter);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(s);
  cudaFree(counter);
  return 0;
}
