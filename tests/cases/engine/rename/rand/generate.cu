#include <curand.h>
curandGenerateUniform(gen, d, n);
curandGenerateNormal(gen, d, n, 0.f, 1.f);
curandDestroyGenerator(gen);
