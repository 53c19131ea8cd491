#include <cuda_runtime.h>
__global__ void child(int *p) {}
void host(int *p) {
  child<<<1, 32>>>(p);
}
