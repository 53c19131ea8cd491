#include <cub/cub.cuh>
bool e = CUB_STDERR;
