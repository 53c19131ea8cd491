// Half-precision matrix-vector product with a per-arch inner loop.
#include "common.cuh"

static __device__ __forceinline__ float dot_half2(const half2 *a, const half2 *b, int n2) {
    float acc = 0.0f;
    for (int i = threadIdx.x; i < n2; i += TINYLM_WARP_SIZE) {
#if defined(__HIP_PLATFORM_AMD__)
        const float2 fa = __half22float2(a[i]);
        const float2 fb = __half22float2(b[i]);
        acc += fa.x * fb.x + fa.y * fb.y;
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 600
        const half2 p = __hmul2(a[i], b[i]);
        acc += __low2float(p) + __high2float(p);
#else
        const float2 fa = __half22float2(a[i]);
        const float2 fb = __half22float2(b[i]);
        acc += fa.x * fb.x + fa.y * fb.y;
#endif
    }
    return warp_reduce_sum(acc);
}

__global__ void matvec_f16(float *y, const half *w, const half *x, int ncols) {
    const int row = blockIdx.x;
    const half2 *wr = reinterpret_cast<const half2 *>(w + static_cast<size_t>(row) * ncols);
    const float sum = dot_half2(wr, reinterpret_cast<const half2 *>(x), ncols / 2);
    if (threadIdx.x == 0) {
        y[row] = sum;
    }
}

int tinylm_device_count() {
    int n = 0;
    TINYLM_CHECK(cudaGetDeviceCount(&n));
    return n;
}

void matvec(float *y, const half *w, const half *x, int nrows, int ncols, cudaStream_t s) {
    matvec_f16<<<nrows, TINYLM_WARP_SIZE, 0, s>>>(y, w, x, ncols);
    TINYLM_CHECK(cudaGetLastError());
}

float *upload(const float *host, size_t n, cudaStream_t s) {
    float *dev = nullptr;
    TINYLM_CHECK(cudaMalloc(reinterpret_cast<void **>(&dev), n * sizeof(float)));
    TINYLM_CHECK(cudaMemcpyAsync(dev, host, n * sizeof(float), cudaMemcpyHostToDevice, s));
    TINYLM_CHECK(cudaStreamSynchronize(s));
    return dev;
}
