#include <cuda_runtime.h>
cudaDeviceProp prop;
cudaGetDeviceProperties(&prop, 0);
printf("%s\n", prop.name);
