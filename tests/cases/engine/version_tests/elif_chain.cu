#include <cuda_runtime.h>
#if __CUDACC_VER_MAJOR__ >= 13
#define PATH 13
#elif __CUDACC_VER_MAJOR__ >= 12 /* the 12.x path */
#define PATH 12
#else
#define PATH 0
#endif
#ifdef CUDART_VERSION
#define HAVE_RUNTIME 1
#endif
