// __launch_bounds__ with a min-blocks and a max-blocks-per-cluster argument.
// The third argument needs a cluster-capable GPU: nvcc -arch=sm_90 (sm_80 rejects it).
#include <cuda_runtime.h>

#define MAX_THREADS 256
#define MIN_BLOCKS 4

__global__ void __launch_bounds__(256, 2) a(float *x) { x[threadIdx.x] = 0.f; }

__global__ void __launch_bounds__(MAX_THREADS, MIN_BLOCKS) b(float *x) { x[threadIdx.x] = 1.f; }

__global__ void
__launch_bounds__(128, 1, 4)
c(float *x) { x[threadIdx.x] = 2.f; }
