// shared_static_transpose.cu - matrix transpose through a statically sized
// shared-memory tile, padded by one column to avoid bank conflicts.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "common.cuh"

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transposeNaive(float *out, const float *in, int width, int height)
{
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (x < width && y + j < height) {
            out[x * height + (y + j)] = in[(y + j) * width + x];
        }
    }
}

__global__ void transposeTiled(float *out, const float *in, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (x < width && y + j < height) {
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
        }
    }
    __syncthreads();

    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (x < height && y + j < width) {
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
        }
    }
}

int main()
{
    const int width = 1024, height = 768;
    const size_t bytes = static_cast<size_t>(width) * height * sizeof(float);
    std::vector<float> host(static_cast<size_t>(width) * height), result(host.size());
    fillRamp(host.data(), host.size());

    float *dIn = nullptr, *dOut = nullptr;
    CUDA_CHECK(cudaMalloc(&dIn, bytes));
    CUDA_CHECK(cudaMalloc(&dOut, bytes));
    CUDA_CHECK(cudaMemcpy(dIn, host.data(), bytes, cudaMemcpyHostToDevice));

    dim3 grid(ceilDiv(width, TILE_DIM), ceilDiv(height, TILE_DIM));
    dim3 block(TILE_DIM, BLOCK_ROWS);
    transposeNaive<<<grid, block>>>(dOut, dIn, width, height);
    CUDA_CHECK_KERNEL();
    transposeTiled<<<grid, block>>>(dOut, dIn, width, height);
    CUDA_CHECK_KERNEL();

    CUDA_CHECK(cudaMemcpy(result.data(), dOut, bytes, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int y = 0; y < height && ok; ++y) {
        for (int x = 0; x < width; ++x) {
            if (result[static_cast<size_t>(x) * height + y] != host[static_cast<size_t>(y) * width + x]) {
                ok = false;
                break;
            }
        }
    }
    std::printf("transpose %s\n", ok ? "ok" : "WRONG");
    CUDA_CHECK(cudaFree(dIn));
    CUDA_CHECK(cudaFree(dOut));
    return ok ? 0 : 1;
}
