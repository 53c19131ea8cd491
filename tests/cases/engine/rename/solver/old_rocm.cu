#include <cusolverDn.h>
cusolverDnHandle_t h;
cusolverDnCreate(&h);
