#include <cuda_runtime.h>
__global__ void __launch_bounds__(256, 2) k(){}
