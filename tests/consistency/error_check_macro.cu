// The usual error-checking macro around every runtime call and after each launch.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(expr)                                                       \
  do {                                                                         \
    cudaError_t status_ = (expr);                                              \
    if (status_ != cudaSuccess) {                                              \
      fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(status_), \
              __FILE__, __LINE__, cudaGetErrorString(status_));                \
      std::exit(EXIT_FAILURE);                                                 \
    }                                                                          \
  } while (0)

__global__ void negate(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = -x[i];
}

int main() {
  int *x;
  CUDA_CHECK(cudaMalloc(&x, 100 * sizeof(int)));
  CUDA_CHECK(cudaMemset(x, 0, 100 * sizeof(int)));
  negate<<<1, 128>>>(x, 100);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(x));
  printf("ok\n");
  return 0;
}
