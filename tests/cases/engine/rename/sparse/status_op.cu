#include <cusparse.h>
cusparseStatus_t st = cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &a, A, x, &b, y, t, alg, buf);
if (st != CUSPARSE_STATUS_SUCCESS) {}
