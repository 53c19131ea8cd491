// Helpers of the AMD driver, written in HIP from the start.
#pragma once

#include <cstdio>
#include <hip/hip_runtime.h>

#define SK_HIP_CHECK(x)                                                               \
    do {                                                                              \
        hipError_t e_ = (x);                                                          \
        if (e_ != hipSuccess) {                                                       \
            std::printf("sparsekit: %s (%s:%d)\n", hipGetErrorString(e_), __FILE__,   \
                        __LINE__);                                                    \
            return e_;                                                                \
        }                                                                             \
    } while (0)

inline hipError_t sparsekit_wavefront_size(int *lanes) {
    int device = 0;
    SK_HIP_CHECK(hipGetDevice(&device));
    SK_HIP_CHECK(hipDeviceGetAttribute(lanes, hipDeviceAttributeWarpSize, device));
    return hipSuccess;
}

inline hipError_t sparsekit_stream(hipStream_t *stream) {
    return hipStreamCreateWithFlags(stream, hipStreamNonBlocking);
}
