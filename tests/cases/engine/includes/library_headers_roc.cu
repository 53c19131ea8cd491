#include <cublas_v2.h>
#include <curand_kernel.h>
#include <cusparse.h>
int x;
