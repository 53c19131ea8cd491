// Small-vector arithmetic for float2/float3/float4/int2/uint3, as graphics and particle codes
// keep in a shared header: component-wise operators, scalar scaling, dot, length, normalize.
#ifndef CORPUS_HELPER_VECMATH_H
#define CORPUS_HELPER_VECMATH_H

#include <cuda_runtime.h>

#define VEC_FN inline __host__ __device__

VEC_FN float3 make_float3(float s) { return make_float3(s, s, s); }
VEC_FN float3 make_float3(float4 v) { return make_float3(v.x, v.y, v.z); }
VEC_FN float4 make_float4(float3 v, float w) { return make_float4(v.x, v.y, v.z, w); }
VEC_FN float2 make_float2(int2 v) { return make_float2(float(v.x), float(v.y)); }

// float2
VEC_FN float2 operator+(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
VEC_FN float2 operator-(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
VEC_FN float2 operator*(float2 a, float s) { return make_float2(a.x * s, a.y * s); }
VEC_FN float2 operator*(float s, float2 a) { return make_float2(a.x * s, a.y * s); }

// float3
VEC_FN float3 operator-(float3 a) { return make_float3(-a.x, -a.y, -a.z); }
VEC_FN float3 operator+(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
VEC_FN float3 operator-(float3 a, float3 b) { return make_float3(a.x - b.x, a.y - b.y, a.z - b.z); }
VEC_FN float3 operator*(float3 a, float3 b) { return make_float3(a.x * b.x, a.y * b.y, a.z * b.z); }
VEC_FN float3 operator*(float3 a, float s) { return make_float3(a.x * s, a.y * s, a.z * s); }
VEC_FN float3 operator*(float s, float3 a) { return make_float3(a.x * s, a.y * s, a.z * s); }
VEC_FN float3 operator/(float3 a, float s) { return a * (1.0f / s); }
VEC_FN void operator+=(float3 &a, float3 b) { a.x += b.x; a.y += b.y; a.z += b.z; }
VEC_FN void operator-=(float3 &a, float3 b) { a.x -= b.x; a.y -= b.y; a.z -= b.z; }
VEC_FN void operator*=(float3 &a, float s) { a.x *= s; a.y *= s; a.z *= s; }

// float4
VEC_FN float4 operator+(float4 a, float4 b) {
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
VEC_FN float4 operator*(float4 a, float s) { return make_float4(a.x * s, a.y * s, a.z * s, a.w * s); }
VEC_FN void operator+=(float4 &a, float4 b) { a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w; }

// int2 and uint3 (pixel and grid coordinates)
VEC_FN int2 operator+(int2 a, int2 b) { return make_int2(a.x + b.x, a.y + b.y); }
VEC_FN int2 operator-(int2 a, int2 b) { return make_int2(a.x - b.x, a.y - b.y); }
VEC_FN uint3 operator*(uint3 a, uint3 b) { return make_uint3(a.x * b.x, a.y * b.y, a.z * b.z); }
VEC_FN uint3 operator+(uint3 a, uint3 b) { return make_uint3(a.x + b.x, a.y + b.y, a.z + b.z); }

VEC_FN float dot(float2 a, float2 b) { return a.x * b.x + a.y * b.y; }
VEC_FN float dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
VEC_FN float dot(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
VEC_FN float length(float3 v) { return sqrtf(dot(v, v)); }
VEC_FN float3 normalize(float3 v) { return v * rsqrtf(dot(v, v)); }
VEC_FN float3 cross(float3 a, float3 b) {
  return make_float3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
VEC_FN float clampf(float v, float lo, float hi) { return fmaxf(lo, fminf(v, hi)); }

#endif  // CORPUS_HELPER_VECMATH_H
