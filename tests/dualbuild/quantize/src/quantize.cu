// bf16 -> int8 block quantization and the int8 dot product that consumes it.
#include "quant.cuh"

__global__ void quantize_q8(const nv_bfloat16 *__restrict__ x, block_q8 *__restrict__ out, int n) {
    const int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b * QK >= n) {
        return;
    }
    float amax = 0.0f;
    for (int i = 0; i < QK; ++i) {
        amax = fmaxf(amax, fabsf(qnt_bf16_to_float(x[b * QK + i])));
    }
    const float d = amax / 127.0f;
    const float id = d > 0.0f ? 1.0f / d : 0.0f;
    out[b].scale = __float2half(d);
    for (int i = 0; i < QK; ++i) {
        out[b].q[i] = static_cast<int8_t>(roundf(qnt_bf16_to_float(x[b * QK + i]) * id));
    }
}

__global__ void dot_q8(const block_q8 *__restrict__ a, const block_q8 *__restrict__ b,
                       nv_bfloat16 *__restrict__ out, int nblocks) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nblocks) {
        return;
    }
    int acc = 0;
    const int *qa = reinterpret_cast<const int *>(a[i].q);
    const int *qb = reinterpret_cast<const int *>(b[i].q);
    for (int k = 0; k < QK / 4; ++k) {
        acc = __dp4a(qa[k], qb[k], acc);
    }
    const float s = __half2float(a[i].scale) * __half2float(b[i].scale);
    out[i] = qnt_float_to_bf16(s * static_cast<float>(acc));
}

// Byte-wise delta of two packed code words, for the drift statistics.
__global__ void code_delta(const unsigned int *a, const unsigned int *b, unsigned int *d, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        d[i] = __vsub4(a[i], b[i]);
    }
}

cudaError_t quantize(const nv_bfloat16 *x, block_q8 *out, int n, cudaStream_t s) {
    const int blocks = (n / QK + 127) / 128;
    quantize_q8<<<blocks, 128, 0, s>>>(x, out, n);
    return cudaGetLastError();
}
