#include <cuda_runtime.h>
#define LAUNCH(kern, n) \
    kern<<<(n), 128>>>( \
        d, n)
