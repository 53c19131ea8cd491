#include <cooperative_groups.h>
#include <cuda_runtime.h>
int x;
