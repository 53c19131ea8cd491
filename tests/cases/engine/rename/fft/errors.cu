#include <cufft.h>
if (r == CUFFT_ALLOC_FAILED || r == CUFFT_NOT_IMPLEMENTED) {}
