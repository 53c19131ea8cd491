#include <cuda_runtime.h>
enum Mode { CUDA_MODE_A, CUDA_MODE_B = 2 };
int m = CUDA_MODE_B;
