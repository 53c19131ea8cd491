#include <cuda_runtime.h>
namespace ops {
template <typename T, int N>
__global__ void fill(T* p) { p[threadIdx.x] = T(N); }
__global__ void zero(float* p) { p[threadIdx.x] = 0.0f; }
}
#define FILL_KERNEL(T) ops::fill<T, 4>
#define ZERO_KERNEL ops::zero
#define LAUNCH_FILL(T, p) ops::fill<T, 8><<<1, 32>>>(p)
void run(float* p, int* q, cudaStream_t s) {
  FILL_KERNEL(float)<<<dim3(1), dim3{32, 1, 1}, 0, s>>>(p);
  ZERO_KERNEL<<<1, 32>>>(p);
  ::ops::zero<<<2, 16, 0, s>>>(p);
#if defined(USE_INT)
  ops::fill<int, 2><<<1, 32>>>(q);
#else
  LAUNCH_FILL(int, q);
#endif
}
