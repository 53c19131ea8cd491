#include <cuda_runtime.h>
#define L(n) \
  k<<<(n), 64>>>( \
    d)
