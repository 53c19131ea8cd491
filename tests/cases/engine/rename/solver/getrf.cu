#include <cusolverDn.h>
cusolverDnSgetrf_bufferSize(h, m, n, A, lda, &lw);
cusolverDnSgetrf(h, m, n, A, lda, w, piv, info);
