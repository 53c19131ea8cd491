// Depthwise 1-D convolution over packed int8 channels, and a float reference path.
#include "arch.h"

template <int K>
__global__ void conv1d_f32(const float *__restrict__ x, const float *__restrict__ w,
                           float *__restrict__ y, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + K > n) return;
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < K; ++k) {
        acc += load_ro(x + i + k) * load_ro(w + k);
    }
    y[i] = acc;
}

__global__ void swap_halves(const unsigned *__restrict__ in, unsigned *__restrict__ out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
#if (defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700) || defined(CONVKERN_HIP)
        out[i] = byte_perm(in[i], 0u, 0x1032u);
#else
        out[i] = (in[i] >> 16) | (in[i] << 16);
#endif
    }
}

cudaError_t conv1d(const float *x, const float *w, float *y, int n, int k, cudaStream_t s) {
    const int blocks = (n + 255) / 256;
    switch (k) {
    case 3:
        conv1d_f32<3><<<blocks, 256, 0, s>>>(x, w, y, n);
        break;
    case 5:
        conv1d_f32<5><<<blocks, 256, 0, s>>>(x, w, y, n);
        break;
    default:
        conv1d_f32<7><<<blocks, 256, 0, s>>>(x, w, y, n);
        break;
    }
    return cudaGetLastError();
}
