// cublas_gemm.cu - cuBLAS handle on a stream, column-major SGEMM with a
// transposed operand, and strided-batched GEMM.
#include <cstdio>
#include <vector>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include "common.cuh"

static const char *cublasStatusName(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    default: return "other cuBLAS error";
    }
}

#define CUBLAS_CHECK(call)                                                      \
    do {                                                                        \
        cublasStatus_t st_ = (call);                                            \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                     \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cublasStatusName(st_)); \
            std::exit(EXIT_FAILURE);                                            \
        }                                                                       \
    } while (0)

int main()
{
    const int m = 64, n = 48, k = 32, batch = 8;
    std::vector<float> A(m * k), B(k * n), C(m * n, 0.0f);
    fillRamp(A.data(), A.size(), 0.1f);
    fillRamp(B.data(), B.size(), 0.2f);

    float *dA = nullptr, *dB = nullptr, *dC = nullptr;
    CUDA_CHECK(cudaMalloc(&dA, batch * A.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dB, batch * B.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dC, batch * C.size() * sizeof(float)));

    cublasHandle_t handle;
    CUBLAS_CHECK(cublasCreate(&handle));
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    CUBLAS_CHECK(cublasSetStream(handle, stream));
    CUBLAS_CHECK(cublasSetMatrix(m, k, sizeof(float), A.data(), m, dA, m));
    CUBLAS_CHECK(cublasSetMatrix(k, n, sizeof(float), B.data(), k, dB, k));

    const float alpha = 1.0f, beta = 0.0f;
    // C = alpha * A * B + beta * C, all column-major.
    CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA, m, dB, k,
                             &beta, dC, m));
    // C = A * A^T (m x m) reuses dC's first m*m floats.
    CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, m, m, k, &alpha, dA, m, dA, m,
                             &beta, dC, m));

    CUBLAS_CHECK(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));
    CUBLAS_CHECK(cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha,
                                           dA, m, static_cast<long long>(m) * k, dB, k,
                                           static_cast<long long>(k) * n, &beta, dC, m,
                                           static_cast<long long>(m) * n, batch));

    CUBLAS_CHECK(cublasGetMatrix(m, n, sizeof(float), dC, m, C.data(), m));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    std::printf("C[0] = %f\n", C[0]);

    int version = 0;
    CUBLAS_CHECK(cublasGetVersion(handle, &version));
    std::printf("cuBLAS version %d\n", version);

    CUBLAS_CHECK(cublasDestroy(handle));
    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC));
    return 0;
}
