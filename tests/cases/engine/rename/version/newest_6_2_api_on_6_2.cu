#include <cuda_runtime.h>
cudaSetValidDevices(devs, 2);
