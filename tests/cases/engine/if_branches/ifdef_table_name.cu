#include <cuda_runtime.h>
#ifdef cudaMemcpy
#endif
