#include <cuda_runtime.h>
__device__ int f() {
#if __CUDA_ARCH__ >= 700
  return 1;
#else
  return 0;
#endif
}
