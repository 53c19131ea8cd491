// Persistent-thread sphere tracer: warps pull tiles from a global counter.
#include <cstdio>
#include "vec3.h"

struct Sphere {
    Vec3 center;
    float radius;
};

__device__ unsigned next_tile;

__device__ float hit_sphere(const Sphere &s, Vec3 origin, Vec3 dir) {
    const Vec3 oc = origin - s.center;
    const float b = dot(oc, dir);
    const float c = dot(oc, oc) - s.radius * s.radius;
    const float disc = b * b - c;
    return disc < 0.0f ? -1.0f : -b - sqrtf(disc);
}

__global__ void render(float *image, int width, int height, const Sphere *spheres, int count,
                       int tiles) {
    __shared__ unsigned tile;
    for (;;) {
        if (threadIdx.x == 0) {
            tile = atomicAdd(&next_tile, 1u);
        }
        __syncthreads();
        if (tile >= static_cast<unsigned>(tiles)) {
            return;
        }
        const int pixel = tile * blockDim.x + threadIdx.x;
        if (pixel < width * height) {
            const Vec3 dir = {(pixel % width) / float(width) - 0.5f,
                              (pixel / width) / float(height) - 0.5f, 1.0f};
            float nearest = 1e30f;
            for (int i = 0; i < count; ++i) {
                const float t = hit_sphere(spheres[i], Vec3{0, 0, 0}, dir);
                nearest = (t > 0.0f && t < nearest) ? t : nearest;
            }
            image[pixel] = nearest < 1e30f ? 1.0f / nearest : 0.0f;
        }
        if (rt_lane_id() == 0) {
            rt_backoff();
        }
        __syncthreads();
    }
}

int render_frame(int width, int height) {
    float *image = nullptr;
    Sphere *spheres = nullptr;
    if (cudaMallocManaged(&image, sizeof(float) * width * height, cudaMemAttachGlobal) !=
            cudaSuccess ||
        cudaMallocManaged(&spheres, sizeof(Sphere) * 2, cudaMemAttachGlobal) != cudaSuccess) {
        return 1;
    }
    spheres[0] = {{0, 0, 3}, 1.0f};
    spheres[1] = {{1, 1, 5}, 0.5f};
    const int tiles = (width * height + 127) / 128;
    render<<<80, 128>>>(image, width, height, spheres, 2, tiles);
    const cudaError_t err = cudaDeviceSynchronize();
    std::printf("%s: %s\n", RT_BACKEND_NAME, err == cudaSuccess ? "ok" : "failed");
    cudaFree(image);
    cudaFree(spheres);
    return err == cudaSuccess ? 0 : 1;
}
