#include <cuda_runtime.h>
cudaPointerAttributes a;
cudaPointerGetAttributes(&a, p);
