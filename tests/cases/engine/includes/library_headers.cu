#include <cublas_v2.h>
#include <curand.h>
#include <cufft.h>
#include <cusparse.h>
int x;
