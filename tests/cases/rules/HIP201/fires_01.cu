#include <cuda_runtime.h>
void f(){ cudaFree(p); }  // hipport: ignore[HIP001]
