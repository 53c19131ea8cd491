#include <cuda_runtime.h>
// the CUDA arm is CUDA-only and HIP compiles nothing in its place
#if CUDART_VERSION >= 11000
static void resetL2() { cudaCtxResetPersistingL2Cache(); }
#endif
