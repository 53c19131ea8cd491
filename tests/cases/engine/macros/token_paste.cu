#include <cuda_runtime.h>
#define API(x) cuda##x
API(Malloc)(&p, n);
