#include <cuda.h>
void f(CUfunction fn, int* g, int* b){ cuOccupancyMaxActiveBlocksPerMultiprocessor(g, fn, 128, 0); }
