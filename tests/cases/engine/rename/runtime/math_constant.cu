#include <cuda_runtime.h>
float x = CUDART_PI_F;
