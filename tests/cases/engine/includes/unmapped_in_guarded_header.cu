#ifndef A_CUH
#define A_CUH
#include <cuda_awbarrier.h>
#endif
