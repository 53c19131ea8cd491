// Near misses: 32 used for sizes, tiles and launch shapes, not lanes; warpSize used properly.
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE 32
#ifdef __HIP_PLATFORM_AMD__
#define WARP_SIZE 64
#else
#define WARP_SIZE 32
#endif

__global__ void transpose(float *out, const float *in, int n)
{
    __shared__ float tile[32][33];  // no warp intrinsic here: a tile, not per-warp storage
    int x = blockIdx.x * 32 + threadIdx.x % 32;
    int y = blockIdx.y * TILE + threadIdx.y / 32;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    out[x * n + y] = tile[threadIdx.x][threadIdx.y];
}

__global__ void warpSum(float *data)
{
    __shared__ float partial[1024 / 32];
    int lane = threadIdx.x % warpSize;
    float v = data[threadIdx.x];
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(__activemask(), v, offset);
    if (lane == 0) partial[threadIdx.x / warpSize] = v;
}

int main()
{
    void *p = std::malloc(32);
    dim3 block(32, 8);
    dim3 grid(32);
    transpose<<<grid, block>>>(nullptr, nullptr, 32);
    int words = 1000 / 32;
    std::free(p);
    return words > WARP_SIZE;
}
