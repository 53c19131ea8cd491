// helper_cuda.h-style error strings: one helper per CUDA error type.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>

static const char *_cudaGetErrorEnum(cudaError_t error)
{
    return cudaGetErrorName(error);
}

static const char *_cudaGetErrorEnum(CUresult error)
{
    switch (error) {
    case CUDA_SUCCESS:
        return "CUDA_SUCCESS";
    case CUDA_ERROR_INVALID_VALUE:
        return "CUDA_ERROR_INVALID_VALUE";
    default:
        return "<unknown>";
    }
}

template <typename T>
void check(T result, const char *func, const char *file, int line)
{
    if (result) {
        fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line,
                static_cast<unsigned int>(result), _cudaGetErrorEnum(result), func);
    }
}
#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)

int main()
{
    checkCudaErrors(cudaSetDevice(0));
    checkCudaErrors(cuInit(0));
    return 0;
}
