#include <cublas_v2.h>
cublasSetStream(h, s);
