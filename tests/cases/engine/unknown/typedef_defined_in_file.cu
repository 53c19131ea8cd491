#include <cuda_runtime.h>
typedef int cuIndex;
cuIndex i;
