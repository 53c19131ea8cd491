#include <cuda.h>
#include <cuda_runtime.h>
static const char *_cudaGetErrorEnum(cudaError_t error) { return cudaGetErrorName(error); }
static const char *_cudaGetErrorEnum(CUresult error)
{
    return error == CUDA_SUCCESS ? "CUDA_SUCCESS" : "<unknown>";
}
