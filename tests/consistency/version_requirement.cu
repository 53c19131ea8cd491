// A program that refuses to build with a CUDA older than 11.0.
#include <cstdio>
#include <cuda_runtime.h>

#if !defined(CUDART_VERSION) || CUDART_VERSION < 11000
#error "this program needs CUDA 11.0 or newer"
#endif

__global__ void hello() { printf("hello from %d\n", threadIdx.x); }

int main() {
  hello<<<1, 4>>>();
  cudaDeviceSynchronize();
  return 0;
}
