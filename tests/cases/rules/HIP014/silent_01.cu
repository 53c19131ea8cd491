#include <cuda_runtime.h>
void f(){ cudaMemcpyBatchAsync(d, s, z, n, a, i, c, f, st); }
