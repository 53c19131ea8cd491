#include <cuda.h>
void f(CUfunction fn, CUoccupancyB2DSize s, int* g, int* b){ cuOccupancyMaxPotentialBlockSize(g, b, fn, s, 0, 0); }
