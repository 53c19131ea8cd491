#include <cuda_runtime.h>
void f(){ cudaFrobnicateWidget(); }  // hipport: ignore[HIP004]
