// Uniform random numbers from the cuRAND host API, checked through the shared helper's cuRAND section.
#include <cuda_runtime.h>
#include <curand.h>
#include <vector>

#include "common/helper_errors.h"

__global__ void count_below(const float *x, int n, float limit, unsigned int *hits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] < limit) atomicAdd(hits, 1u);
}

int main() {
  const int n = 1 << 18;
  float *samples = nullptr;
  unsigned int *hits = nullptr;
  checkCudaErrors(cudaMalloc(&samples, n * sizeof(float)));
  checkCudaErrors(cudaMalloc(&hits, sizeof(unsigned int)));
  checkCudaErrors(cudaMemset(hits, 0, sizeof(unsigned int)));
  curandGenerator_t gen;
  checkCudaErrors(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
  checkCudaErrors(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
  checkCudaErrors(curandGenerateUniform(gen, samples, n));
  count_below<<<n / 256, 256>>>(samples, n, 0.25f, hits);
  getLastCudaError("count_below");
  unsigned int h = 0;
  checkCudaErrors(cudaMemcpy(&h, hits, sizeof(h), cudaMemcpyDeviceToHost));
  printf("%.3f below 0.25\n", double(h) / n);
  checkCudaErrors(curandDestroyGenerator(gen));
  checkCudaErrors(cudaFree(samples));
  checkCudaErrors(cudaFree(hits));
  return 0;
}
