#include <cuda_runtime.h>
#define RUN(k, ...) k<<<1, 32>>>(__VA_ARGS__)
