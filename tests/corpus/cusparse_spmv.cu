// cusparse_spmv.cu - cuSPARSE generic API: a CSR matrix and dense vectors
// described with cusparseCreateCsr/cusparseCreateDnVec, y = A*x with
// cusparseSpMV and an external buffer.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include <cusparse.h>
#include "common.cuh"

#define CUSPARSE_CHECK(call)                                                    \
    do {                                                                        \
        cusparseStatus_t st_ = (call);                                          \
        if (st_ != CUSPARSE_STATUS_SUCCESS) {                                   \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,             \
                         cusparseGetErrorString(st_));                          \
            std::exit(EXIT_FAILURE);                                            \
        }                                                                       \
    } while (0)

int main()
{
    // Tridiagonal n x n matrix: 2 on the diagonal, -1 off it.
    const int n = 1000;
    std::vector<int> rowPtr(n + 1), colInd;
    std::vector<float> values;
    for (int r = 0; r < n; ++r) {
        rowPtr[r] = static_cast<int>(colInd.size());
        for (int c = r - 1; c <= r + 1; ++c) {
            if (c < 0 || c >= n) continue;
            colInd.push_back(c);
            values.push_back(c == r ? 2.0f : -1.0f);
        }
    }
    rowPtr[n] = static_cast<int>(colInd.size());
    const int nnz = rowPtr[n];
    std::vector<float> x(n, 1.0f), y(n, 0.0f);

    int *dRowPtr = nullptr, *dColInd = nullptr;
    float *dValues = nullptr, *dx = nullptr, *dy = nullptr;
    CUDA_CHECK(cudaMalloc(&dRowPtr, (n + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dColInd, nnz * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dValues, nnz * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dRowPtr, rowPtr.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dColInd, colInd.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dValues, values.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    cusparseHandle_t handle;
    CUSPARSE_CHECK(cusparseCreate(&handle));
    cusparseSpMatDescr_t matA;
    cusparseDnVecDescr_t vecX, vecY;
    CUSPARSE_CHECK(cusparseCreateCsr(&matA, n, n, nnz, dRowPtr, dColInd, dValues,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CUSPARSE_CHECK(cusparseCreateDnVec(&vecX, n, dx, CUDA_R_32F));
    CUSPARSE_CHECK(cusparseCreateDnVec(&vecY, n, dy, CUDA_R_32F));

    const float alpha = 1.0f, beta = 0.0f;
    size_t bufferSize = 0;
    CUSPARSE_CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA,
                                           vecX, &beta, vecY, CUDA_R_32F,
                                           CUSPARSE_SPMV_ALG_DEFAULT, &bufferSize));
    void *buffer = nullptr;
    CUDA_CHECK(cudaMalloc(&buffer, bufferSize));
    CUSPARSE_CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX,
                                &beta, vecY, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer));

    CUDA_CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    std::printf("y[0] = %f (expect 1), y[500] = %f (expect 0)\n", y[0], y[500]);

    CUSPARSE_CHECK(cusparseDestroySpMat(matA));
    CUSPARSE_CHECK(cusparseDestroyDnVec(vecX));
    CUSPARSE_CHECK(cusparseDestroyDnVec(vecY));
    CUSPARSE_CHECK(cusparseDestroy(handle));
    CUDA_CHECK(cudaFree(buffer));
    CUDA_CHECK(cudaFree(dRowPtr));
    CUDA_CHECK(cudaFree(dColInd));
    CUDA_CHECK(cudaFree(dValues));
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dy));
    return 0;
}
