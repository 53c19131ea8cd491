#include <cuda_runtime.h>
#ifdef X
#include <cuda.h>
#endif
int x;
