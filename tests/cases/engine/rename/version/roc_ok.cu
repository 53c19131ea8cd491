#include <cuda_runtime.h>
#include <cublas_v2.h>
cublasSetMathMode(h, m);
