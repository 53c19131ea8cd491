// HIP build: types and SIMD intrinsics HIP does not have, written for AMD.
#pragma once

#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_bfloat16.h>

#define cudaStream_t hipStream_t
#define cudaError_t hipError_t
#define cudaGetLastError hipGetLastError
typedef hip_bfloat16 nv_bfloat16;

static __device__ __forceinline__ float qnt_bf16_to_float(nv_bfloat16 v) { return float(v); }
static __device__ __forceinline__ nv_bfloat16 qnt_float_to_bf16(float v) { return nv_bfloat16(v); }

// Per-byte subtraction with wrap-around, as CUDA's SIMD video intrinsic.
static __device__ __forceinline__ unsigned int __vsub4(unsigned int a, unsigned int b) {
    unsigned int r = 0;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const unsigned int d = ((a >> (8 * i)) - (b >> (8 * i))) & 0xffu;
        r |= d << (8 * i);
    }
    return r;
}

// Four-way int8 dot product with accumulate.
static __device__ __forceinline__ int __dp4a(int a, int b, int c) {
    const signed char *va = reinterpret_cast<const signed char *>(&a);
    const signed char *vb = reinterpret_cast<const signed char *>(&b);
    return c + va[0] * vb[0] + va[1] * vb[1] + va[2] * vb[2] + va[3] * vb[3];
}
