#include <cuda_runtime.h>
cudaMemPrefetchBatchAsync(p, s, n, l, i, c, 0, st);
