#include <cuda_runtime.h>
__global__ void c(int *p) {}
__global__ void k(int *p) {
#if __CUDA_ARCH__ >= 350
  c<<<1, 1>>>(p);
#endif
}
