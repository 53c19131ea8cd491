#include <cuda_runtime.h>
cudaStream_t s;
cudaStreamCreate(&s);
cudaStreamSynchronize(s);
cudaStreamDestroy(s);
