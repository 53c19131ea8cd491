#include <cusparse.h>
void analyse(cusparseHandle_t h, cusparseMatDescr_t d, float* val, int* rows, int* cols,
             csrilu02Info_t info, void* buffer) {
  cusparseScsrilu02_analysis(h, 10, 20, d, val, rows, cols, info,
                             CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
  cusparseScsrilu02(h, 10, 20, d, val, rows, cols, info, CUSPARSE_SOLVE_POLICY_NO_LEVEL, buffer);
}
