// cooperative_groups_reduce.cu - thread blocks, tiled partitions and a
// grid-wide sync launched with cudaLaunchCooperativeKernel.
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>
#include "common.cuh"

namespace cg = cooperative_groups;

__device__ float tileSum(cg::thread_block_tile<32> tile, float v)
{
    for (int offset = tile.size() / 2; offset > 0; offset /= 2) {
        v += tile.shfl_down(v, offset);
    }
    return v;
}

__global__ void sumWithTiles(const float *in, float *out, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);

    float v = 0.0f;
    for (int i = block.group_index().x * block.size() + block.thread_rank(); i < n;
         i += block.size() * gridDim.x) {
        v += in[i];
    }
    v = tileSum(tile, v);
    if (tile.thread_rank() == 0) {
        atomicAdd(out, v);
    }
    block.sync();
}

__global__ void sumWithReduce(const float *in, float *out, int n)
{
    auto block = cg::this_thread_block();
    auto tile = cg::tiled_partition<16>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    float s = cg::reduce(tile, v, cg::plus<float>());
    if (tile.thread_rank() == 0) {
        atomicAdd(out, s);
    }
}

// Two phases separated by a grid-wide barrier.
__global__ void twoPhase(float *data, float *partial, int n)
{
    cg::grid_group grid = cg::this_grid();
    for (int i = grid.thread_rank(); i < n; i += grid.size()) {
        data[i] *= 2.0f;
    }
    grid.sync();
    if (grid.thread_rank() == 0) {
        float s = 0.0f;
        for (int i = 0; i < n; ++i) s += data[i];
        *partial = s;
    }
}

int main()
{
    const int n = 1 << 16;
    float *data = nullptr, *out = nullptr;
    CUDA_CHECK(cudaMallocManaged(&data, n * sizeof(float)));
    CUDA_CHECK(cudaMallocManaged(&out, sizeof(float)));
    for (int i = 0; i < n; ++i) data[i] = 1.0f;
    *out = 0.0f;

    sumWithTiles<<<64, 256>>>(data, out, n);
    sumWithReduce<<<n / 256, 256>>>(data, out, n);
    CUDA_CHECK_KERNEL();
    std::printf("sum %f (expect %d)\n", *out, 2 * n);

    int device = 0, supported = 0, blocksPerSm = 0, smCount = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, device));
    if (!supported) return 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&smCount, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerSm, twoPhase, 256, 0));

    int count = n;
    void *args[] = {&data, &out, &count};
    dim3 grid(blocksPerSm * smCount), block(256);
    CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void *>(twoPhase), grid, block, args, 0, 0));
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(data));
    CUDA_CHECK(cudaFree(out));
    return 0;
}
