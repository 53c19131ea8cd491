#include <cuda.h>
int f = CU_CTX_SCHED_AUTO;
