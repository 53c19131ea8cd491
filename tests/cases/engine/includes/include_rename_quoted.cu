#include "kernels.cuh"
#include <kernels.cuh>
int x;
