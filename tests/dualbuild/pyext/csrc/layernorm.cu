// Fused LayerNorm forward: one block per row, Welford statistics in registers.
#include <pyext/macros.h>

struct Welford {
    float mean, m2, count;  // no initializers: the type lives in __shared__ memory

    __device__ void add(float x) {
        count += 1.0f;
        const float delta = x - mean;
        mean += delta / count;
        m2 += delta * (x - mean);
    }

    __device__ void merge(const Welford &o) {
        if (o.count == 0.0f) return;
        const float n = count + o.count;
        const float delta = o.mean - mean;
        mean += delta * o.count / n;
        m2 += o.m2 + delta * delta * count * o.count / n;
        count = n;
    }
};

__device__ Welford warp_welford(Welford w) {
    for (int lane = PYEXT_WARP_SIZE / 2; lane > 0; lane /= 2) {
        Welford other = {0.0f, 0.0f, 0.0f};
        other.mean = PYEXT_SHFL_XOR(PYEXT_FULL_MASK, w.mean, lane);
        other.m2 = PYEXT_SHFL_XOR(PYEXT_FULL_MASK, w.m2, lane);
        other.count = PYEXT_SHFL_XOR(PYEXT_FULL_MASK, w.count, lane);
        w.merge(other);
    }
    return w;
}

__global__ void layernorm_fwd(const float *PYEXT_RESTRICT x, const float *PYEXT_RESTRICT gamma,
                              const float *PYEXT_RESTRICT beta, float *PYEXT_RESTRICT y,
                              int cols, float eps) {
    __shared__ Welford partial[1024 / PYEXT_WARP_SIZE];
    const float *row = x + static_cast<size_t>(blockIdx.x) * cols;
    Welford w = {0.0f, 0.0f, 0.0f};
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        w.add(row[c]);
    }
    w = warp_welford(w);
    const int warp = threadIdx.x / PYEXT_WARP_SIZE;
    if (threadIdx.x % PYEXT_WARP_SIZE == 0) partial[warp] = w;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int i = 1; i < blockDim.x / PYEXT_WARP_SIZE; ++i) partial[0].merge(partial[i]);
    }
    __syncthreads();
    const float mean = partial[0].mean;
    const float rstd = rsqrtf(partial[0].m2 / cols + eps);
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        y[static_cast<size_t>(blockIdx.x) * cols + c] = (row[c] - mean) * rstd * gamma[c] + beta[c];
    }
}

void layernorm(const float *x, const float *gamma, const float *beta, float *y, int rows,
               int cols, float eps, pyext_stream_t stream) {
    layernorm_fwd<<<rows, 256, 0, stream>>>(x, gamma, beta, y, cols, eps);
}
