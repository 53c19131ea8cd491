// 5-point Jacobi stencil on a 2D grid with a shared-memory tile and halo.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE 16

__global__ void jacobi(const float *__restrict__ in, float *__restrict__ out, int nx, int ny) {
  __shared__ float s[TILE + 2][TILE + 2];
  int gx = blockIdx.x * TILE + threadIdx.x;
  int gy = blockIdx.y * TILE + threadIdx.y;
  int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
  if (gx < nx && gy < ny) {
    s[ly][lx] = in[gy * nx + gx];
    if (threadIdx.x == 0 && gx > 0) s[ly][0] = in[gy * nx + gx - 1];
    if (threadIdx.x == TILE - 1 && gx < nx - 1) s[ly][TILE + 1] = in[gy * nx + gx + 1];
    if (threadIdx.y == 0 && gy > 0) s[0][lx] = in[(gy - 1) * nx + gx];
    if (threadIdx.y == TILE - 1 && gy < ny - 1) s[TILE + 1][lx] = in[(gy + 1) * nx + gx];
  }
  __syncthreads();
  if (gx > 0 && gy > 0 && gx < nx - 1 && gy < ny - 1)
    out[gy * nx + gx] = 0.25f * (s[ly][lx - 1] + s[ly][lx + 1] + s[ly - 1][lx] + s[ly + 1][lx]);
}

int main() {
  const int nx = 512, ny = 512;
  size_t bytes = size_t(nx) * ny * sizeof(float);
  float *a, *b;
  cudaMalloc(&a, bytes);
  cudaMalloc(&b, bytes);
  cudaMemset(a, 0, bytes);
  dim3 block(TILE, TILE), grid((nx + TILE - 1) / TILE, (ny + TILE - 1) / TILE);
  for (int it = 0; it < 100; ++it) {
    jacobi<<<grid, block>>>(a, b, nx, ny);
    float *t = a; a = b; b = t;
  }
  cudaDeviceSynchronize();
  printf("done: %s\n", cudaGetErrorString(cudaGetLastError()));
  cudaFree(a);
  cudaFree(b);
  return EXIT_SUCCESS;
}
