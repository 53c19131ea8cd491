#include <cublas_v2.h>
cublasStatus_t st = cublasCreate(&h);
if (st != CUBLAS_STATUS_SUCCESS) {}
