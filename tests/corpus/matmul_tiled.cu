// matmul_tiled.cu - tiled single-precision matrix multiply with static shared
// tiles, using the shared helpers in common.cuh and launch.cuh.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "common.cuh"
#include "launch.cuh"

constexpr int TILE = 16;

__global__ void matmulTiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;

    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int aCol = t * TILE + threadIdx.x;
        int bRow = t * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < M && aCol < K) ? A[row * K + aCol] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (bRow < K && col < N) ? B[bRow * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) {
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        }
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = acc;
}

static void matmulHost(const std::vector<float> &A, const std::vector<float> &B,
                       std::vector<float> &C, int M, int N, int K)
{
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            float s = 0.0f;
            for (int k = 0; k < K; ++k) s += A[i * K + k] * B[k * N + j];
            C[i * N + j] = s;
        }
}

int main()
{
    const int M = 200, N = 150, K = 130;
    std::vector<float> A(M * K), B(K * N), C(M * N), ref(M * N);
    fillRamp(A.data(), A.size(), 0.01f);
    fillRamp(B.data(), B.size(), 0.02f);

    DeviceBuffer<float> dA(A.size()), dB(B.size()), dC(C.size());
    dA.upload(A.data());
    dB.upload(B.data());

    dim3 block(TILE, TILE);
    dim3 grid(ceilDiv(N, TILE), ceilDiv(M, TILE));
    matmulTiled<<<grid, block>>>(dA.ptr, dB.ptr, dC.ptr, M, N, K);
    CUDA_CHECK_KERNEL();
    dC.download(C.data());

    matmulHost(A, B, ref, M, N, K);
    int bad = 0;
    for (size_t i = 0; i < C.size(); ++i) bad += !nearlyEqual(C[i], ref[i], 1e-3f);
    std::printf("%d mismatches\n", bad);
    return bad ? 1 : 0;
}
