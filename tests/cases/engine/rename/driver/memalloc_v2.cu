#include <cuda.h>
cuMemAlloc_v2(&p, n);
