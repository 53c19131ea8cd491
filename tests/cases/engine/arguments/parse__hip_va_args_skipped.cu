#include <cuda_runtime.h>
#define COPY_TO(...) cudaMemcpyToSymbol(__VA_ARGS__)
#define COPY_LUT(sym, src) cudaMemcpyToSymbol(sym, src, sizeof(sym))
