#include <cusparse.h>
cusparseSpMatDescr_t A;
int base = CUSPARSE_INDEX_BASE_ZERO;
int op = CUSPARSE_OPERATION_NON_TRANSPOSE;
