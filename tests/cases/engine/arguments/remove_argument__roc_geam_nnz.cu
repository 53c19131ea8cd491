#include <cusparse.h>
void nnz(cusparseHandle_t h, cusparseMatDescr_t a, cusparseMatDescr_t b, cusparseMatDescr_t c,
         int* ra, int* ca, int* rb, int* cb, int* rc, int* total, void* work) {
  cusparseXcsrgeam2Nnz(h, 8, 8, a, 4, ra, ca, b, 4, rb, cb, c, rc, total, work);
}
