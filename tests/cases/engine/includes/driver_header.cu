#include <cuda.h>
int x;
