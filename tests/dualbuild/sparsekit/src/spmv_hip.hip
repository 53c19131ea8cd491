// AMD driver for the SpMV kernels: rows get a full 64-lane wavefront on CDNA.
#include "hip_helpers.hpp"
#include "spmv_kernels.cuh"

hipError_t sparsekit_spmv(int nrows, const int *row_ptr, const int *cols, const float *vals,
                          const float *x, float *y, hipStream_t stream) {
    int lanes = 64;
    SK_HIP_CHECK(sparsekit_wavefront_size(&lanes));
    constexpr int block = 256;
    if (lanes == 64) {
        const int grid = (nrows * 64 + block - 1) / block;
        hipLaunchKernelGGL((sparsekit::csr_spmv_vector<float, 64>), dim3(grid), dim3(block), 0,
                           stream, nrows, row_ptr, cols, vals, x, y);
    } else {
        const int grid = (nrows * 32 + block - 1) / block;
        hipLaunchKernelGGL((sparsekit::csr_spmv_vector<float, 32>), dim3(grid), dim3(block), 0,
                           stream, nrows, row_ptr, cols, vals, x, y);
    }
    SK_HIP_CHECK(hipGetLastError());
    return hipSuccess;
}

hipError_t sparsekit_spmv_sync(int nrows, const int *row_ptr, const int *cols,
                               const float *vals, const float *x, float *y) {
    hipStream_t stream;
    SK_HIP_CHECK(sparsekit_stream(&stream));
    SK_HIP_CHECK(sparsekit_spmv(nrows, row_ptr, cols, vals, x, y, stream));
    SK_HIP_CHECK(hipStreamSynchronize(stream));
    SK_HIP_CHECK(hipStreamDestroy(stream));
    return hipSuccess;
}
