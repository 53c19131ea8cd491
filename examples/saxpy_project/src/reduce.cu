// Block-level sum: shared memory across warps, shuffles within a warp.
//
// PORTABILITY HAZARD (on purpose): this code assumes a warp is 32 lanes.
// The full mask 0xffffffff names 32 lanes, the shuffle offsets start at 16
// and the shared array holds one slot per 32 threads. AMD GPUs of the CDNA
// family run 64-lane wavefronts, so a literal translation to HIP sums only
// half of each wavefront. A port should use warpSize and a 64-bit mask.
#include "kernels.cuh"

namespace {

constexpr int kBlock = 256;
constexpr int kWarp = 32;

__device__ float warp_sum(float v)
{
    for (int offset = kWarp / 2; offset > 0; offset /= 2) {
        v += __shfl_down_sync(0xffffffff, v, offset);
    }
    return v;
}

__global__ void block_sum_kernel(const float* __restrict__ in, float* __restrict__ out, size_t n)
{
    __shared__ float partial[kBlock / kWarp];

    float v = 0.0f;
    const size_t stride = static_cast<size_t>(blockDim.x) * gridDim.x;
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += stride) {
        v += in[i];
    }

    const int lane = threadIdx.x % kWarp;
    const int warp = threadIdx.x / kWarp;
    v = warp_sum(v);
    if (lane == 0) {
        partial[warp] = v;
    }
    __syncthreads();

    if (warp == 0) {
        v = lane < kBlock / kWarp ? partial[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0) {
            atomicAdd(out, v);
        }
    }
}

}  // namespace

float device_sum(const float* d_in, size_t n, cudaStream_t stream)
{
    float* d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_out, sizeof(float)));
    CUDA_CHECK(cudaMemsetAsync(d_out, 0, sizeof(float), stream));

    const int grid = 128;
    block_sum_kernel<<<grid, kBlock, 0, stream>>>(d_in, d_out, n);
    CUDA_CHECK(cudaGetLastError());

    float h_out = 0.0f;
    CUDA_CHECK(cudaMemcpyAsync(&h_out, d_out, sizeof(float), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaFree(d_out));
    return h_out;
}
