#include <cuda_runtime.h>
struct S { cudaStream_t stream; cudaEvent_t ev; };
