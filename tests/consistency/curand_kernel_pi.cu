// Monte Carlo estimate of pi: one curandState per thread.
#include <cstdio>
#include <curand_kernel.h>

__global__ void setup(curandState *states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

__global__ void hits(curandState *states, int samples, unsigned long long *count) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[id];
  unsigned long long in = 0;
  for (int s = 0; s < samples; ++s) {
    float x = curand_uniform(&local), y = curand_uniform(&local);
    in += (x * x + y * y <= 1.f);
  }
  states[id] = local;
  atomicAdd(count, in);
}

int main() {
  const int threads = 256, blocks = 16, samples = 1000;
  curandState *states;
  unsigned long long *count;
  cudaMalloc(&states, threads * blocks * sizeof(curandState));
  cudaMallocManaged(&count, sizeof(unsigned long long));
  *count = 0;
  setup<<<blocks, threads>>>(states, 42ULL);
  hits<<<blocks, threads>>>(states, samples, count);
  cudaDeviceSynchronize();
  printf("pi ~ %f\n", 4.0 * double(*count) / (double(threads) * blocks * samples));
  return 0;
}
