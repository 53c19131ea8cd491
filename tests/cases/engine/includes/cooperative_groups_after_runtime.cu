#include <cuda_runtime.h>
#include <cooperative_groups.h>
int x;
