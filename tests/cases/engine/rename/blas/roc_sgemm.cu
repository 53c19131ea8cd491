#include <cublas_v2.h>
cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &a, A, m, B, k, &b, C, m);
