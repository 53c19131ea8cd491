// Attention scores S = Q K^T for 16x16 tiles: tensor cores where present, FMA elsewhere.
#include "att/features.h"

#ifdef WMMA_AVAILABLE
using namespace nvcuda;
#endif

__global__ void ATT_LAUNCH_BOUNDS(128)
scores_tile(const half *__restrict__ q, const half *__restrict__ k, float *__restrict__ s,
            int d) {
#ifdef WMMA_AVAILABLE
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> qa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> kb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int t = 0; t < d; t += 16) {
        wmma::load_matrix_sync(qa, q + t, d);
        wmma::load_matrix_sync(kb, k + t, d);
        wmma::mma_sync(acc, qa, kb, acc);
    }
    wmma::store_matrix_sync(s, acc, 16, wmma::mem_row_major);
#else
    for (int e = threadIdx.x; e < 16 * 16; e += blockDim.x) {
        const int r = e / 16, c = e % 16;
        float acc = 0.0f;
        for (int t = 0; t < d; ++t) {
            acc += __half2float(q[r * d + t]) * __half2float(k[c * d + t]);
        }
        s[e] = acc;
    }
#endif
}

__global__ void ATT_LAUNCH_BOUNDS(128) scale_rows(float *s, int n, float inv_sqrt_d) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        s[i] *= inv_sqrt_d;
    }
}

void launch_scores(const half *q, const half *k, float *s, int d, int tiles) {
    scores_tile<<<tiles, 128>>>(q, k, s, d);
}
