#ifdef __HIP_PLATFORM_NVIDIA__
#include <cuda_awbarrier.h>
#endif
int x;
