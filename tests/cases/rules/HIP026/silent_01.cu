#include <cuda.h>
#include <cuda_runtime.h>
#ifdef USE_DRIVER_API
static const char *name_of(CUresult error) { return error == CUDA_SUCCESS ? "ok" : "driver"; }
#else
static const char *name_of(cudaError_t error) { return cudaGetErrorName(error); }
#endif
