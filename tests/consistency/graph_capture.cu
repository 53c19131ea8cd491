// Capture a sequence of kernels into a CUDA graph once, then replay it.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 14;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  for (int k = 0; k < 4; ++k) axpy<<<n / 128, 128, 0, s>>>(0.5f, x, y, n);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0);
  for (int rep = 0; rep < 10; ++rep) cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  size_t nodes = 0;
  cudaGraphGetNodes(graph, nullptr, &nodes);
  printf("graph has %zu nodes\n", nodes);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(s);
  cudaFree(x);
  cudaFree(y);
  return 0;
}
