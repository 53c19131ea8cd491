#include <cuda_runtime.h>
#ifdef A
#ifndef B
cudaFree(p);
#endif
#endif
