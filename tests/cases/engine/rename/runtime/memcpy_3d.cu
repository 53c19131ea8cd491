#include <cuda_runtime.h>
cudaExtent ext = make_cudaExtent(4, 4, 4);
cudaPitchedPtr pp = make_cudaPitchedPtr(p, 16, 4, 4);
