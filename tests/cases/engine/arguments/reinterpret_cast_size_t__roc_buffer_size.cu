#include <cusparse.h>
void size(cusparseHandle_t h, cusparseMatDescr_t d, float* val, int* rows, int* cols,
          csrilu02Info_t info, int* bytes) {
  cusparseScsrilu02_bufferSize(h, 10, 20, d, val, rows, cols, info, bytes);
}
