#include <cusparse.h>
cusparseMatDescr_t d;
