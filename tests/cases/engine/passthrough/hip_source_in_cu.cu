#include <hip/hip_runtime.h>
__global__ void k(float* p) { p[threadIdx.x] = 0; }
int main() {
  float* p;
  hipMalloc(&p, 4);
  hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0, p);
  hipFree(p);
}
