#include <cusolverDn.h>
cusolverStatus_t st = cusolverDnDpotrf(h, u, n, A, lda, w, lw, info);
if (st != CUSOLVER_STATUS_SUCCESS) {}
