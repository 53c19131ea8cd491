// Error names and the checking macros the corpus's multi-file programs share: one section per
// CUDA library, compiled only when the program included that library's header before this one.
#ifndef CORPUS_HELPER_ERRORS_H
#define CORPUS_HELPER_ERRORS_H

#include <cstdio>
#include <cstdlib>

static const char *_cudaGetErrorEnum(cudaError_t error) { return cudaGetErrorName(error); }

#ifdef __cuda_cuda_h__
// driver API results (cuda.h included first)
static const char *_cudaGetErrorEnum(CUresult error) {
  const char *name = nullptr;
  if (cuGetErrorName(error, &name) != CUDA_SUCCESS || name == nullptr) return "<unknown CUresult>";
  return name;
}
#endif

#ifdef CUBLAS_API_H_
static const char *_cudaGetErrorEnum(cublasStatus_t error) {
  switch (error) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    default: return "<other cublasStatus_t>";
  }
}
#endif

#ifdef _CUFFT_H_
static const char *_cudaGetErrorEnum(cufftResult error) {
  switch (error) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    default: return "<other cufftResult>";
  }
}
#endif

#ifdef CURAND_H_
static const char *_cudaGetErrorEnum(curandStatus_t error) {
  switch (error) {
    case CURAND_STATUS_SUCCESS: return "CURAND_STATUS_SUCCESS";
    case CURAND_STATUS_NOT_INITIALIZED: return "CURAND_STATUS_NOT_INITIALIZED";
    case CURAND_STATUS_ALLOCATION_FAILED: return "CURAND_STATUS_ALLOCATION_FAILED";
    case CURAND_STATUS_TYPE_ERROR: return "CURAND_STATUS_TYPE_ERROR";
    case CURAND_STATUS_LAUNCH_FAILURE: return "CURAND_STATUS_LAUNCH_FAILURE";
    default: return "<other curandStatus_t>";
  }
}
#endif

#ifdef CUSPARSEAPI
static const char *_cudaGetErrorEnum(cusparseStatus_t error) {
  switch (error) {
    case CUSPARSE_STATUS_SUCCESS: return "CUSPARSE_STATUS_SUCCESS";
    case CUSPARSE_STATUS_NOT_INITIALIZED: return "CUSPARSE_STATUS_NOT_INITIALIZED";
    case CUSPARSE_STATUS_ALLOC_FAILED: return "CUSPARSE_STATUS_ALLOC_FAILED";
    case CUSPARSE_STATUS_INVALID_VALUE: return "CUSPARSE_STATUS_INVALID_VALUE";
    case CUSPARSE_STATUS_INTERNAL_ERROR: return "CUSPARSE_STATUS_INTERNAL_ERROR";
    default: return "<other cusparseStatus_t>";
  }
}
#endif

#ifdef CUSOLVER_COMMON_H_
static const char *_cudaGetErrorEnum(cusolverStatus_t error) {
  switch (error) {
    case CUSOLVER_STATUS_SUCCESS: return "CUSOLVER_STATUS_SUCCESS";
    case CUSOLVER_STATUS_NOT_INITIALIZED: return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED: return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE: return "CUSOLVER_STATUS_INVALID_VALUE";
    default: return "<other cusolverStatus_t>";
  }
}
#endif

// Any status type with an overload above: nonzero is a failure, reported with its name.
template <typename Status>
void reportOnFailure(Status status, const char *call, const char *file, int line) {
  if (status) {
    fprintf(stderr, "%s:%d: %s failed: %d (%s)\n", file, line, call, static_cast<int>(status),
            _cudaGetErrorEnum(status));
    exit(EXIT_FAILURE);
  }
}
#define checkCudaErrors(call) reportOnFailure((call), #call, __FILE__, __LINE__)

inline void reportLaunch(const char *what, const char *file, int line) {
  cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) {
    fprintf(stderr, "%s:%d: %s: %s\n", file, line, what, cudaGetErrorString(status));
    exit(EXIT_FAILURE);
  }
}
#define getLastCudaError(what) reportLaunch((what), __FILE__, __LINE__)

#endif  // CORPUS_HELPER_ERRORS_H
