#include <cusparse.h>
cusparseHandle_t h;
cusparseCreate(&h);
cusparseDestroy(h);
