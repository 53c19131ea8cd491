// host_device_macros.cuh - a header meant to be included from both .cu and
// plain .cpp files: qualifiers and math helpers switch on __CUDACC__ and
// __CUDA_ARCH__.
#ifndef CORPUS_HOST_DEVICE_MACROS_CUH
#define CORPUS_HOST_DEVICE_MACROS_CUH

#ifdef __CUDACC__
#define HD __host__ __device__
#define DEVICE_INLINE __device__ __forceinline__
#else
#define HD
#define DEVICE_INLINE inline
#endif

#if defined(__CUDACC__) && defined(__CUDA_ARCH__)
#define ON_DEVICE 1
#else
#define ON_DEVICE 0
#endif

struct Vec3 {
    float x, y, z;
};

HD inline Vec3 make_vec3(float x, float y, float z) { return Vec3{x, y, z}; }
HD inline Vec3 operator+(Vec3 a, Vec3 b) { return Vec3{a.x + b.x, a.y + b.y, a.z + b.z}; }
HD inline Vec3 operator*(float s, Vec3 a) { return Vec3{s * a.x, s * a.y, s * a.z}; }
HD inline float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

HD inline float fastRsqrt(float v)
{
#if ON_DEVICE
    return rsqrtf(v);
#else
    return 1.0f / __builtin_sqrtf(v);
#endif
}

HD inline Vec3 normalize(Vec3 a) { return fastRsqrt(dot(a, a)) * a; }

#endif // CORPUS_HOST_DEVICE_MACROS_CUH
