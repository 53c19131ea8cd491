// NVIDIA driver for the SpMV kernels (the AMD build compiles spmv_hip.hip instead).
#include <cstdio>
#include "spmv_kernels.cuh"

#define SK_CUDA_CHECK(x)                                                              \
    do {                                                                              \
        cudaError_t e_ = (x);                                                         \
        if (e_ != cudaSuccess) {                                                      \
            std::printf("sparsekit: %s (%s:%d)\n", cudaGetErrorString(e_), __FILE__,  \
                        __LINE__);                                                    \
            return e_;                                                                \
        }                                                                             \
    } while (0)

cudaError_t sparsekit_spmv(int nrows, const int *row_ptr, const int *cols, const float *vals,
                           const float *x, float *y, cudaStream_t stream) {
    constexpr int width = 32;
    constexpr int block = 128;
    const int grid = (nrows * width + block - 1) / block;
    sparsekit::csr_spmv_vector<float, width>
        <<<grid, block, 0, stream>>>(nrows, row_ptr, cols, vals, x, y);
    SK_CUDA_CHECK(cudaGetLastError());
    return cudaSuccess;
}

cudaError_t sparsekit_spmv_sync(int nrows, const int *row_ptr, const int *cols,
                                const float *vals, const float *x, float *y) {
    cudaStream_t stream;
    SK_CUDA_CHECK(cudaStreamCreate(&stream));
    SK_CUDA_CHECK(sparsekit_spmv(nrows, row_ptr, cols, vals, x, y, stream));
    SK_CUDA_CHECK(cudaStreamSynchronize(stream));
    SK_CUDA_CHECK(cudaStreamDestroy(stream));
    return cudaSuccess;
}
