// A 3D grid walk that combines uint3 block and thread coordinates with the shared operators.
#include <cstdio>
#include <cuda_runtime.h>

#include "common/helper_vecmath.h"

__global__ void label(unsigned int *cells, uint3 extent) {
  uint3 block = make_uint3(blockIdx.x, blockIdx.y, blockIdx.z);
  uint3 dims = make_uint3(blockDim.x, blockDim.y, blockDim.z);
  uint3 local = make_uint3(threadIdx.x, threadIdx.y, threadIdx.z);
  uint3 cell = block * dims + local;
  if (cell.x >= extent.x || cell.y >= extent.y || cell.z >= extent.z) return;
  cells[(cell.z * extent.y + cell.y) * extent.x + cell.x] = cell.x + cell.y + cell.z;
}

__global__ void offsets(float2 *out, const int2 *moves, int n, float2 origin, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = origin + scale * make_float2(moves[i] + make_int2(1, 1));
}

int main() {
  const uint3 extent = make_uint3(64, 32, 8);
  unsigned int *cells;
  cudaMalloc(&cells, extent.x * extent.y * extent.z * sizeof(unsigned int));
  dim3 block(8, 8, 4);
  dim3 grid(extent.x / 8, extent.y / 8, extent.z / 4);
  label<<<grid, block>>>(cells, extent);
  const int n = 256;
  float2 *out;
  int2 *moves;
  cudaMallocManaged(&out, n * sizeof(float2));
  cudaMallocManaged(&moves, n * sizeof(int2));
  for (int i = 0; i < n; ++i) moves[i] = make_int2(i % 3 - 1, i % 5 - 2);
  offsets<<<1, n>>>(out, moves, n, make_float2(0.5f, 0.5f), 2.0f);
  cudaDeviceSynchronize();
  printf("%.1f %.1f\n", out[7].x, out[7].y);
  cudaFree(cells);
  cudaFree(out);
  cudaFree(moves);
  return 0;
}
