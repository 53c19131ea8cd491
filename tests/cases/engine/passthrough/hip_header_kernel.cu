#pragma once
#include <hip/hip_runtime.h>
__device__ inline int f() { return __shfl_xor(1, 1); }
