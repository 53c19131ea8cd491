#include <cuda_runtime.h>
void f(){ cudaBindTexture(0, tex, p, n); }
