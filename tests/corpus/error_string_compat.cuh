// error_string_compat.cuh - a helper header in the style of widely copied
// "helper_cuda.h" files: it decides what to define by testing which CUDA
// headers were included before it, via their include guards.
#ifndef CORPUS_ERROR_STRING_COMPAT_CUH
#define CORPUS_ERROR_STRING_COMPAT_CUH

#include <cstdio>
#include <cstdlib>

#ifdef __CUDA_RUNTIME_H__
// The runtime API is visible: offer the runtime flavour of the helper.
static const char *errorString(cudaError_t error)
{
    return cudaGetErrorName(error);
}
#endif

#ifdef __cuda_cuda_h__
// The driver API is visible too: an overload for CUresult.
static const char *errorString(CUresult error)
{
    const char *name = nullptr;
    return cuGetErrorName(error, &name) == CUDA_SUCCESS ? name : "<unknown CUresult>";
}
#endif

#if defined(__DRIVER_TYPES_H__) && !defined(CORPUS_HAVE_CHECK_ERROR)
#define CORPUS_HAVE_CHECK_ERROR 1
template <typename T>
void checkError(T result, const char *func, const char *file, int line)
{
    if (result) {
        std::fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line,
                     static_cast<unsigned int>(result), errorString(result), func);
        std::exit(EXIT_FAILURE);
    }
}
#define checkCudaErrors(val) checkError((val), #val, __FILE__, __LINE__)
#endif

#if defined(__CUDA_RUNTIME_H__)
// Report the last asynchronous error without aborting.
inline void getLastCudaError(const char *message, const char *file = __FILE__,
                             int line = __LINE__)
{
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        std::fprintf(stderr, "%s(%d): getLastCudaError() %s: (%d) %s\n", file, line,
                     message, static_cast<int>(err), cudaGetErrorString(err));
    }
}
#endif

#endif // CORPUS_ERROR_STRING_COMPAT_CUH
