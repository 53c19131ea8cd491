#include <cuda_runtime.h>
void f(cudaStream_t s, cudaEvent_t e) { cudaStreamWaitEvent(s, e); }
