#include <cuda_runtime.h>
char c = 'c';
