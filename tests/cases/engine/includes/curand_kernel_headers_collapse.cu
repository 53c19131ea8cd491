#include <curand_kernel.h>
#include <curand_normal.h>
#include <curand_uniform.h>
int x;
