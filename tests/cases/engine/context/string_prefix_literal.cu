#include <cuda_runtime.h>
auto s = u8"cudaFree";
