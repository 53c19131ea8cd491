#include <cublas_v2.h>
void f(cublasHandle_t h) { cublasDestroy(h); }
