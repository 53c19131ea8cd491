// Shade a sphere by casting one ray per pixel: float3 algebra, normalize, cross and int2 pixels.
#include <cstdio>
#include <cuda_runtime.h>

#include "common/helper_vecmath.h"

struct Camera {
  float3 eye, forward, right, up;
};

__device__ float hit_sphere(float3 origin, float3 dir, float3 centre, float radius) {
  float3 oc = origin - centre;
  float b = dot(oc, dir);
  float c = dot(oc, oc) - radius * radius;
  float disc = b * b - c;
  return disc < 0.0f ? -1.0f : -b - sqrtf(disc);
}

__global__ void render(uchar4 *image, int2 size, Camera cam, float3 light) {
  int2 pixel = make_int2(blockIdx.x * blockDim.x + threadIdx.x, blockIdx.y * blockDim.y + threadIdx.y);
  if (pixel.x >= size.x || pixel.y >= size.y) return;
  int2 centre = make_int2(size.x / 2, size.y / 2);
  float2 uv = make_float2(pixel - centre) * (2.0f / size.y);
  float3 dir = normalize(cam.forward + uv.x * cam.right + uv.y * cam.up);
  float t = hit_sphere(cam.eye, dir, make_float3(0.0f), 1.0f);
  float shade = 0.0f;
  if (t > 0.0f) {
    float3 p = cam.eye + dir * t;
    shade = clampf(dot(normalize(p), normalize(light - p)), 0.0f, 1.0f);
  }
  unsigned char v = static_cast<unsigned char>(255.0f * shade);
  image[pixel.y * size.x + pixel.x] = make_uchar4(v, v, v, 255);
}

int main() {
  const int2 size = make_int2(640, 480);
  uchar4 *image;
  cudaMallocManaged(&image, size.x * size.y * sizeof(uchar4));
  Camera cam;
  cam.eye = make_float3(0.0f, 0.0f, -4.0f);
  cam.forward = make_float3(0.0f, 0.0f, 1.0f);
  cam.up = make_float3(0.0f, 1.0f, 0.0f);
  cam.right = cross(cam.up, cam.forward);
  dim3 block(16, 16);
  dim3 grid((size.x + 15) / 16, (size.y + 15) / 16);
  render<<<grid, block>>>(image, size, cam, make_float3(5.0f, 5.0f, -5.0f));
  cudaDeviceSynchronize();
  printf("centre %d\n", image[(size.y / 2) * size.x + size.x / 2].x);
  cudaFree(image);
  return 0;
}
