#include <cuda_runtime.h>
#define CHECK(call) \
  do { \
    cudaError_t e = (call); \
    if (e != cudaSuccess) abort(); \
  } while (0)
