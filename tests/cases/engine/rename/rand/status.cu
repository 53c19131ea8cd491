#include <curand.h>
curandStatus_t st = curandGenerateUniform(gen, d, n);
if (st != CURAND_STATUS_SUCCESS) {}
