#include <cuda_runtime.h>
void f(){ cudaMemcpy2DToArray(d, 0, 0, s, p, w, h, k); }
