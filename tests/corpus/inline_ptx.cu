// inline_ptx.cu - inline PTX through asm volatile: special registers, a
// timer, a predicated add and a cache-hinted load. None of it exists on AMD.
#include <cstdio>
#include <cuda_runtime.h>
#include "common.cuh"

__device__ __forceinline__ unsigned int ptxLaneId()
{
    unsigned int lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
}

__device__ __forceinline__ unsigned int ptxSmId()
{
    unsigned int sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    return sm;
}

__device__ __forceinline__ unsigned long long ptxGlobalTimer()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ float ldgStreaming(const float *p)
{
    float v;
    asm volatile("ld.global.cs.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}

__device__ __forceinline__ int addIfPositive(int a, int b)
{
    int r;
    asm("{\n\t"
        ".reg .pred p;\n\t"
        "setp.gt.s32 p, %2, 0;\n\t"
        "mov.s32 %0, %1;\n\t"
        "@p add.s32 %0, %1, %2;\n\t"
        "}"
        : "=r"(r)
        : "r"(a), "r"(b));
    return r;
}

__global__ void profileBlocks(const float *in, float *out, unsigned int *smOfBlock,
                              unsigned long long *cycles, int n)
{
    long long start = clock64();
    unsigned long long t0 = ptxGlobalTimer();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = ldgStreaming(in + i) * 2.0f + addIfPositive(0, static_cast<int>(ptxLaneId()));
    }
    asm volatile("bar.sync 0;" ::: "memory");
    if (threadIdx.x == 0) {
        smOfBlock[blockIdx.x] = ptxSmId();
        cycles[blockIdx.x] = static_cast<unsigned long long>(clock64() - start) + 0 * t0;
    }
}

int main()
{
    const int n = 1 << 14, threads = 128, blocks = n / threads;
    float *dIn = nullptr, *dOut = nullptr;
    unsigned int *dSm = nullptr;
    unsigned long long *dCycles = nullptr;
    CUDA_CHECK(cudaMalloc(&dIn, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dSm, blocks * sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&dCycles, blocks * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(dIn, 0, n * sizeof(float)));

    profileBlocks<<<blocks, threads>>>(dIn, dOut, dSm, dCycles, n);
    CUDA_CHECK_KERNEL();

    unsigned int sm0 = 0;
    unsigned long long c0 = 0;
    CUDA_CHECK(cudaMemcpy(&sm0, dSm, sizeof(sm0), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&c0, dCycles, sizeof(c0), cudaMemcpyDeviceToHost));
    std::printf("block 0 ran on SM %u in %llu cycles\n", sm0, c0);

    CUDA_CHECK(cudaFree(dIn));
    CUDA_CHECK(cudaFree(dOut));
    CUDA_CHECK(cudaFree(dSm));
    CUDA_CHECK(cudaFree(dCycles));
    return 0;
}
