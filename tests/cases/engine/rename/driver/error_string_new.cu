#include <cuda.h>
const char* s; cuGetErrorString(r, &s);
