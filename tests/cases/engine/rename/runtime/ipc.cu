#include <cuda_runtime.h>
cudaIpcMemHandle_t hnd;
cudaIpcGetMemHandle(&hnd, p);
