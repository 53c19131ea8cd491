#include <cublas_v2.h>
cublasHandle_t h;
cublasCreate(&h);
cublasDestroy(h);
