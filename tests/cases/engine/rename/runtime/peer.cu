#include <cuda_runtime.h>
int ok; cudaDeviceCanAccessPeer(&ok, 0, 1);
cudaDeviceEnablePeerAccess(1, 0);
