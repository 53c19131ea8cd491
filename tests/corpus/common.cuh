// common.cuh - error checking and small helpers shared by several corpus programs.
#ifndef CORPUS_COMMON_CUH
#define CORPUS_COMMON_CUH

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// Abort with file and line when a runtime call fails.
#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__,       \
                         __LINE__, #call, cudaGetErrorString(err_),             \
                         cudaGetErrorName(err_));                               \
            std::exit(EXIT_FAILURE);                                            \
        }                                                                       \
    } while (0)

// Check the launch itself and then wait for the kernel to finish.
#define CUDA_CHECK_KERNEL()                                                     \
    do {                                                                        \
        CUDA_CHECK(cudaGetLastError());                                         \
        CUDA_CHECK(cudaDeviceSynchronize());                                    \
    } while (0)

// Function form, for call sites that want to keep going after an error.
inline cudaError_t checkCuda(cudaError_t result, const char *what = "")
{
    if (result != cudaSuccess) {
        std::fprintf(stderr, "CUDA error in %s: %s\n", what, cudaGetErrorString(result));
    }
    return result;
}

inline unsigned int ceilDiv(unsigned int n, unsigned int d)
{
    return (n + d - 1) / d;
}

inline void fillRamp(float *host, size_t n, float scale = 1.0f)
{
    for (size_t i = 0; i < n; ++i) {
        host[i] = scale * static_cast<float>(i % 97);
    }
}

inline bool nearlyEqual(float a, float b, float tol = 1e-4f)
{
    float diff = a > b ? a - b : b - a;
    return diff <= tol * (1.0f + (a > 0 ? a : -a));
}

#endif // CORPUS_COMMON_CUH
