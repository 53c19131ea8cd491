#include <cuda_runtime.h>
cudaEvent_t a, b;
cudaEventCreate(&a);
cudaEventRecord(a, s);
cudaEventSynchronize(b);
float ms;
cudaEventElapsedTime(&ms, a, b);
