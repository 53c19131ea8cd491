#include <cuda_runtime.h>
#ifdef BIG
k<<<1024, 256>>>(d);
#else
k<<<1, 32>>>(d);
#endif
