#include <cuda_runtime.h>
void f(){ cudaCreateTextureObject(&t, &r, &d, 0); }
