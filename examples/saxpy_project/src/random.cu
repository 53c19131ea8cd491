// Device-side random input through the cuRAND host API.
#include <curand.h>

#include "kernels.cuh"

#define CURAND_CHECK(call)                                                   \
    do {                                                                     \
        curandStatus_t st_ = (call);                                         \
        if (st_ != CURAND_STATUS_SUCCESS) {                                  \
            std::fprintf(stderr, "%s:%d: cuRAND error %d\n", __FILE__,       \
                         __LINE__, static_cast<int>(st_));                   \
            std::exit(EXIT_FAILURE);                                         \
        }                                                                    \
    } while (0)

void fill_uniform(float* d_out, size_t n, unsigned long long seed, cudaStream_t stream)
{
    curandGenerator_t gen;
    CURAND_CHECK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10));
    CURAND_CHECK(curandSetStream(gen, stream));
    CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, seed));
    CURAND_CHECK(curandGenerateUniform(gen, d_out, n));
    CURAND_CHECK(curandDestroyGenerator(gen));
}
