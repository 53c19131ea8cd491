#include <cuda_runtime.h>
#define WAIT_ON(s, e) cudaStreamWaitEvent(s, e)
void f(cudaStream_t s, cudaEvent_t e) { WAIT_ON(s, e); }
