#include <cuda_runtime.h>
cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
cudaStreamWaitEvent(s, e, 0);
