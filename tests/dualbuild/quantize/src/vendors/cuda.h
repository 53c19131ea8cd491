#pragma once

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

static __device__ __forceinline__ float qnt_bf16_to_float(nv_bfloat16 v) { return __bfloat162float(v); }
static __device__ __forceinline__ nv_bfloat16 qnt_float_to_bf16(float v) { return __float2bfloat16(v); }
