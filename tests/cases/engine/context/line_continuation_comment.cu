#include <cuda_runtime.h>
// comment \
cudaFree(p);
int x;
