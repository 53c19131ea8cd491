#include <cuda_runtime.h>
cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync);
