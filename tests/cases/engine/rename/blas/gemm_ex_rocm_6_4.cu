#include <cublas_v2.h>
cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &a, A, t, m, B, t, k, &b, C, t, m, ct, CUBLAS_GEMM_DEFAULT);
