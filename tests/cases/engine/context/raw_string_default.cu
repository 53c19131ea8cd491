#include <cuda_runtime.h>
auto s = R"(cudaFree)";
