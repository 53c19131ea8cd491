#include <cuda_runtime.h>
void f(){ cudaMemcpyToArray(d, 0, 0, s, n, k); }
