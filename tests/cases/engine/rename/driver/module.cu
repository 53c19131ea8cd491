#include <cuda.h>
CUmodule m;
CUfunction f;
cuModuleLoad(&m, "k.cubin");
cuModuleGetFunction(&f, m, "k");
