#include "detail/util.cuh"
int x;
