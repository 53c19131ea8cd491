#include <cuda.h>
CUstream s;
CUevent e;
cuStreamCreate(&s, 0);
