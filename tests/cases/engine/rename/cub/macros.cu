#include <cub/cub.cuh>
int m = CUB_MAX(a, b) + CUB_MIN(a, b);
