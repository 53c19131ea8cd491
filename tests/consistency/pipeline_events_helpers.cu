// Two-stage pipeline over three streams: event waits with CUDA's default flags, a CUDART_CB
// completion callback, checked through the shared error helper.
#include <cuda_runtime.h>

#include "common/helper_errors.h"

static void CUDART_CB stage_done(void *label) { printf("%s done\n", static_cast<const char *>(label)); }

__global__ void produce(int *x, int n, int seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = (i * 1103515245 + seed) & 0xffff;
}

__global__ void consume(const int *a, const int *b, int *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) sum[i] = a[i] + b[i];
}

int main() {
  const int n = 1 << 18;
  int *a, *b, *sum;
  checkCudaErrors(cudaMalloc(&a, n * sizeof(int)));
  checkCudaErrors(cudaMalloc(&b, n * sizeof(int)));
  checkCudaErrors(cudaMalloc(&sum, n * sizeof(int)));
  cudaStream_t left, right, join;
  checkCudaErrors(cudaStreamCreateWithFlags(&left, cudaStreamNonBlocking));
  checkCudaErrors(cudaStreamCreateWithFlags(&right, cudaStreamNonBlocking));
  checkCudaErrors(cudaStreamCreateWithFlags(&join, cudaStreamNonBlocking));
  cudaEvent_t left_ready, right_ready;
  checkCudaErrors(cudaEventCreateWithFlags(&left_ready, cudaEventDisableTiming));
  checkCudaErrors(cudaEventCreateWithFlags(&right_ready, cudaEventDisableTiming));
  produce<<<n / 256, 256, 0, left>>>(a, n, 1);
  checkCudaErrors(cudaEventRecord(left_ready, left));
  produce<<<n / 256, 256, 0, right>>>(b, n, 2);
  checkCudaErrors(cudaEventRecord(right_ready, right));
  checkCudaErrors(cudaStreamWaitEvent(join, left_ready));
  checkCudaErrors(cudaStreamWaitEvent(join, right_ready));
  consume<<<n / 256, 256, 0, join>>>(a, b, sum, n);
  getLastCudaError("consume");
  static const char label[] = "join";
  checkCudaErrors(cudaLaunchHostFunc(join, stage_done, const_cast<char *>(label)));
  checkCudaErrors(cudaStreamSynchronize(join));
  checkCudaErrors(cudaEventDestroy(left_ready));
  checkCudaErrors(cudaEventDestroy(right_ready));
  checkCudaErrors(cudaStreamDestroy(left));
  checkCudaErrors(cudaStreamDestroy(right));
  checkCudaErrors(cudaStreamDestroy(join));
  checkCudaErrors(cudaFree(a));
  checkCudaErrors(cudaFree(b));
  checkCudaErrors(cudaFree(sum));
  return 0;
}
