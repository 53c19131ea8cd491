#include <cusolverDn.h>
cusolverStatus_t st;
cusolverDnHandle_t h;
if (st == CUSOLVER_STATUS_SUCCESS) {}
