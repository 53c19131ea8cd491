#include <cuda_runtime.h>
cublasFancy(h);
curandFancy(g);
cufftFancy(p);
