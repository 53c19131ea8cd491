#include <cuda_runtime.h>
void f(){ cudaMalloc(&p, n); }  // hipport: ignore[HIP001
