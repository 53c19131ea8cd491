#include <cuda_awbarrier.h>
int x;
