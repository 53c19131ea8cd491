#include <cublas_v2.h>
// CUBLAS_GEMM_DEFAULT_TENSOR_OP is CUDA's deprecated spelling of the default algorithm
cublasStatus_t gemm(cublasHandle_t h, int n, const float* a, const float* b, float* c) {
  const float one = 1.f, zero = 0.f;
  return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, CUDA_R_32F, n, b,
                      CUDA_R_32F, n, &zero, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                      CUBLAS_GEMM_DEFAULT_TENSOR_OP);
}
