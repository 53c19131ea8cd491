#include <cusparse.h>
cusparseSpMatDescr_t A;
cusparseDnVecDescr_t x;
cusparseCreateCsr(&A, m, n, nnz, rp, ci, v, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, t);
