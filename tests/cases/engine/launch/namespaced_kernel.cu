#include <cuda_runtime.h>
ns::k<<<g, b>>>(d);
