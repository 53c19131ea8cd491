#include <cublas_v2.h>
cublasStatus_t st;
