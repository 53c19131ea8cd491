#include <cuda_runtime.h>
void f(){ cudaFrobnicateWidget(); }
