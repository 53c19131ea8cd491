#include <cuda_runtime.h>
k<<<std::max<int>(1, n), b>>>(d);
