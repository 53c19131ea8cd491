#include <cublas_v2.h>
cublasSetMathMode(h, CUBLAS_TENSOR_OP_MATH);
