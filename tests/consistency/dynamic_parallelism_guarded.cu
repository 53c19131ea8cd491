// Device-side launch only where the architecture supports it; otherwise the host loops.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void child(int *out, int base) { out[base + threadIdx.x] = base; }

__global__ void parent(int *out, int parts, int width) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 350 && defined(__CUDACC_RDC__)
  if (threadIdx.x < parts) child<<<1, width>>>(out, threadIdx.x * width);
#else
  for (int p = 0; p < parts; ++p)
    if (threadIdx.x < width) out[p * width + threadIdx.x] = p * width;
#endif
}

int main() {
  int *out;
  cudaMallocManaged(&out, 8 * 32 * sizeof(int));
  parent<<<1, 32>>>(out, 8, 32);
  cudaDeviceSynchronize();
  printf("%d\n", out[8 * 32 - 1]);
  cudaFree(out);
  return 0;
}
