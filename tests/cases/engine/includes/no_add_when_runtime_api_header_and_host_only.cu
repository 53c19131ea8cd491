#include <cuda_runtime_api.h>
void f() { cudaDeviceSynchronize(); }
