#include <cuda.h>
int v; cuDriverGetVersion(&v);
