#include <cub/cub.cuh>
CUB_RUNTIME_FUNCTION int f();
#if CUB_PTX_ARCH >= 700
#endif
