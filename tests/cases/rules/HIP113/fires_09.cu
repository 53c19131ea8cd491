#include <cuda_runtime.h>
#include <cstdio>
#if CUDART_VERSION >= 11000
void banner() { std::printf("built with CUDA runtime %d\n", CUDART_VERSION); }
#else
void banner() {}
#endif
