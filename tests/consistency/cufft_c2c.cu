// In-place 1D complex FFT with cuFFT, forward then inverse.
#include <cstdio>
#include <cufft.h>
#include <cuda_runtime.h>

int main() {
  const int n = 256;
  cufftComplex *data;
  cudaMalloc(&data, n * sizeof(cufftComplex));
  cudaMemset(data, 0, n * sizeof(cufftComplex));
  cufftHandle plan;
  if (cufftPlan1d(&plan, n, CUFFT_C2C, 1) != CUFFT_SUCCESS) return 1;
  cufftExecC2C(plan, data, data, CUFFT_FORWARD);
  cufftExecC2C(plan, data, data, CUFFT_INVERSE);
  cudaDeviceSynchronize();
  cufftDestroy(plan);
  cudaFree(data);
  printf("ok\n");
  return 0;
}
