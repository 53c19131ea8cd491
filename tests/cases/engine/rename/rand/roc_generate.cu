#include <curand.h>
curandStatus_t st = curandGenerateNormal(gen, d, n, 0.f, 1.f);
curandDestroyGenerator(gen);
