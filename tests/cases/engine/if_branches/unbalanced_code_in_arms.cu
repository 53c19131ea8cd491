#include <cuda_runtime.h>
#ifdef X
if (cudaMalloc(&p, n) != cudaSuccess) {
#else
if (cudaMallocManaged(&p, n) != cudaSuccess) {
#endif
}
