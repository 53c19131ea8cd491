// Shared declarations for the saxpy example: error checking, a templated
// element-wise kernel and the entry points of random.cu and reduce.cu.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

// Abort with file and line on any runtime API failure.
#define CUDA_CHECK(call)                                                     \
    do {                                                                     \
        cudaError_t err_ = (call);                                           \
        if (err_ != cudaSuccess) {                                           \
            std::fprintf(stderr, "%s:%d: CUDA error %s: %s\n", __FILE__,     \
                         __LINE__, cudaGetErrorName(err_),                   \
                         cudaGetErrorString(err_));                          \
            std::exit(EXIT_FAILURE);                                         \
        }                                                                    \
    } while (0)

// y[i] = a * x[i] + y[i] for any arithmetic T, grid-stride so any grid size works.
template <typename T>
__global__ void axpy_kernel(T a, const T* __restrict__ x, T* __restrict__ y, size_t n)
{
    const size_t stride = static_cast<size_t>(blockDim.x) * gridDim.x;
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += stride) {
        y[i] = a * x[i] + y[i];
    }
}

// random.cu: fill d_out[0..n) with uniform floats in (0, 1] on `stream`.
void fill_uniform(float* d_out, size_t n, unsigned long long seed, cudaStream_t stream);

// reduce.cu: sum d_in[0..n) on the device and return the result to the host.
float device_sum(const float* d_in, size_t n, cudaStream_t stream);
