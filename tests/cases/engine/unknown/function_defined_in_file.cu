#include <cuda_runtime.h>
static void cudaCheck(cudaError_t e) {}
void f() { cudaCheck(cudaGetLastError()); }
