#include <cuda_runtime.h>
#define LAUNCH(n) k<<<(n), 128>>>(d, n)
