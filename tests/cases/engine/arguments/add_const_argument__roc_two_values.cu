#include <cusparse.h>
void mm(cusparseHandle_t h, const float* alpha, const float* beta, cusparseSpMatDescr_t a,
        cusparseDnMatDescr_t b, cusparseDnMatDescr_t c, void* buffer) {
  cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, a, b,
               beta, c, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buffer);
}
