#include <cuda_runtime.h>
#if 0
cudaFree(p);
#endif
