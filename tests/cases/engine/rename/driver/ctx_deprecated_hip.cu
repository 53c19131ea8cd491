#include <cuda.h>
CUcontext c;
cuCtxGetCurrent(&c);
