#include <cuda_runtime.h>
#include <cuda/std/atomic>
__global__ void count(cuda::std::atomic<int>* n) {
  n->fetch_add(1, ::cuda::std::memory_order_relaxed);
}
