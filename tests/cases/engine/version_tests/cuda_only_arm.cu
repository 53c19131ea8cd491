#include <cuda_runtime.h>
#if CUDART_VERSION >= 11000
void reset() { cudaCtxResetPersistingL2Cache(); }
#else
void reset() {}
#endif
