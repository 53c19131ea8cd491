// Generate normally distributed numbers on the device with the cuRAND host API.
#include <cstdio>
#include <curand.h>
#include <cuda_runtime.h>

int main() {
  const size_t n = 1 << 16;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  curandGenerator_t gen;
  curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
  curandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
  curandGenerateNormal(gen, d, n, 0.0f, 1.0f);
  float first = 0.f;
  cudaMemcpy(&first, d, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", first);
  curandDestroyGenerator(gen);
  cudaFree(d);
  return 0;
}
