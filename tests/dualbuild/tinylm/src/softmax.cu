// Row softmax, one warp per row; rows are staged through shared memory.
#include "common.cuh"

static __device__ __forceinline__ void stage_row(float *dst, const float *src, int n) {
#ifdef CP_ASYNC_AVAILABLE
    for (int i = threadIdx.x * 4; i < n; i += blockDim.x * 4) {
        unsigned smem = static_cast<unsigned>(__cvta_generic_to_shared(dst + i));
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem), "l"(src + i));
    }
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 0;\n" ::);
#else
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        dst[i] = src[i];
    }
#endif
    __syncthreads();
}

__global__ void softmax_rows(float *out, const float *in, int ncols, float scale) {
    extern __shared__ float row[];
    const int r = blockIdx.x;
    stage_row(row, in + static_cast<size_t>(r) * ncols, ncols);

    float m = -INFINITY;
    for (int c = threadIdx.x; c < ncols; c += blockDim.x) {
        m = fmaxf(m, row[c] * scale);
    }
    m = warp_reduce_max(m);

    float sum = 0.0f;
    for (int c = threadIdx.x; c < ncols; c += blockDim.x) {
        const float e = expf(row[c] * scale - m);
        row[c] = e;
        sum += e;
    }
    sum = warp_reduce_sum(sum);
    tinylm_assert_finite(sum);

    for (int c = threadIdx.x; c < ncols; c += blockDim.x) {
        __stcs(out + static_cast<size_t>(r) * ncols + c, row[c] / sum);
    }
}

void softmax(float *out, const float *in, int nrows, int ncols, float scale,
             cudaStream_t stream) {
    const size_t smem = ncols * sizeof(float);
    if (smem > 48 * 1024) {
        // HIP takes the kernel as const void *; CUDA accepts that form too.
        TINYLM_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void *>(softmax_rows),
                                          cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(smem)));
    }
    softmax_rows<<<nrows, TINYLM_WARP_SIZE, smem, stream>>>(out, in, ncols, scale);
    TINYLM_CHECK(cudaGetLastError());
}
