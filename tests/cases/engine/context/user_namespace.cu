#include <cuda_runtime.h>
mylib::cudaMalloc(&p, n);
