// SAXPY checked through a shared error helper header (runtime API only, no library sections).
#include <cuda_runtime.h>
#include <vector>

#include "common/helper_errors.h"

__global__ void saxpy(int n, float a, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 20;
  std::vector<float> hx(n, 1.0f), hy(n, 2.0f);
  float *dx = nullptr, *dy = nullptr;
  checkCudaErrors(cudaMalloc(&dx, n * sizeof(float)));
  checkCudaErrors(cudaMalloc(&dy, n * sizeof(float)));
  checkCudaErrors(cudaMemcpy(dx, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(dy, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  saxpy<<<256, 256>>>(n, 3.0f, dx, dy);
  getLastCudaError("saxpy");
  checkCudaErrors(cudaMemcpy(hy.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  printf("y[0] = %.1f\n", hy[0]);
  checkCudaErrors(cudaFree(dx));
  checkCudaErrors(cudaFree(dy));
  return 0;
}
