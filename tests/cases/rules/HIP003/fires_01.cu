#include <cuda_runtime.h>
void f(){ cudaMemPrefetchBatchAsync(p, s, n, l, i, c, 0, st); }
