#include <cuda_runtime.h>
#include <curand.h>
#include <cusparse.h>

// A helper header's library sections, each behind the guard of the CUDA header it needs.
#ifdef CURAND_H_
static const char *randName(curandStatus_t s) { return s == CURAND_STATUS_SUCCESS ? "ok" : "?"; }
#endif
#if defined(CUSPARSEAPI) && defined(__CUDA_RUNTIME_H__)
static const char *sparseName(cusparseStatus_t s) { return s == CUSPARSE_STATUS_SUCCESS ? "ok" : "?"; }
#endif
#ifndef CUBLAS_API_H_
#define NO_BLAS 1
#endif
#ifdef _CUFFT_H_
#elif defined(CUSOLVER_COMMON_H_)
#endif
#ifdef NVJPEGAPI
int jpeg;
#endif
// Guards in code or in a #define are left alone.
#define CURAND_H_SEEN CURAND_H_
