#include <cuda_runtime.h>
cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
