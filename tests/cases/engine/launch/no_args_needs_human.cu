#include <cuda_runtime.h>
#define CFG k<<<1, 1>>>
