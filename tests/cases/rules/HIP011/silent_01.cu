#include <cuda_runtime.h>
void f(){ cuCtxCreate(&c, 0, dev); }
