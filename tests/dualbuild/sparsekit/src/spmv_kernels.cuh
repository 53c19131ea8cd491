// CSR SpMV kernels shared by the CUDA driver (spmv.cu) and the HIP one (spmv_hip.hip).
#pragma once

#ifdef SPARSEKIT_HIP
#include <hip/hip_runtime.h>
#else
#include <cuda_runtime.h>
#endif

namespace sparsekit {

template <typename T>
__device__ __forceinline__ T subwarp_sum(T v, int width) {
    for (int offset = width / 2; offset > 0; offset /= 2) {
#if defined(__HIP_PLATFORM_AMD__)
        v += __shfl_down(v, offset, width);
#else
        v += __shfl_down_sync(0xffffffffu, v, offset, width);
#endif
    }
    return v;
}

// One sub-warp of `Width` lanes per row.
template <typename T, int Width>
__global__ void csr_spmv_vector(int nrows, const int *__restrict__ row_ptr,
                                const int *__restrict__ cols, const T *__restrict__ vals,
                                const T *__restrict__ x, T *__restrict__ y) {
    const int lane = threadIdx.x % Width;
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) / Width;
    if (row >= nrows) {
        return;
    }
    T acc = T(0);
    for (int k = row_ptr[row] + lane; k < row_ptr[row + 1]; k += Width) {
        acc += vals[k] * x[cols[k]];
    }
    acc = subwarp_sum(acc, Width);
    if (lane == 0) {
        y[row] = acc;
    }
}

}  // namespace sparsekit
