#include <cublasLt.h>
cublasLtHandle_t lt;
cublasLtCreate(&lt);
