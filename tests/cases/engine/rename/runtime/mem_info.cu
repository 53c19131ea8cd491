#include <cuda_runtime.h>
size_t free_b, total_b;
cudaMemGetInfo(&free_b, &total_b);
