#include <cuda_runtime.h>
a<<<1, 1>>>(); b<<<2, 2>>>(x);
