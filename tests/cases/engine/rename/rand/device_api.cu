#include <curand_kernel.h>
__global__ void k(curandState* st, float* out) {
  curand_init(1234, threadIdx.x, 0, &st[threadIdx.x]);
  out[threadIdx.x] = curand_uniform(&st[threadIdx.x]) + curand_normal(&st[threadIdx.x]);
}
