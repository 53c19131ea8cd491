#include <cuda_runtime.h>
__device__ unsigned f(int p) { return __ballot_sync(0xffffffff, p); }
