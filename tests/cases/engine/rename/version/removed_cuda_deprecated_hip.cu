#include <cuda_runtime.h>
cudaBindTexture(0, tex, p, n);
