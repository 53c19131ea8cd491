#include <cuda_awbarrier.h>
