// cublas_saxpy.cu - cuBLAS level-1 routines: vectors moved with
// cublasSetVector/cublasGetVector, then saxpy, dot, nrm2, scal and amax.
#include <cstdio>
#include <vector>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include "common.cuh"

static void checkCublas(cublasStatus_t status, const char *what)
{
    if (status != CUBLAS_STATUS_SUCCESS) {
        std::fprintf(stderr, "%s failed with cuBLAS status %d\n", what, static_cast<int>(status));
        std::exit(EXIT_FAILURE);
    }
}

int main()
{
    const int n = 1 << 16;
    std::vector<float> x(n), y(n, 1.0f);
    fillRamp(x.data(), n, 0.001f);

    float *dx = nullptr, *dy = nullptr;
    CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));

    cublasHandle_t handle;
    checkCublas(cublasCreate(&handle), "cublasCreate");
    checkCublas(cublasSetVector(n, sizeof(float), x.data(), 1, dx, 1), "cublasSetVector x");
    checkCublas(cublasSetVector(n, sizeof(float), y.data(), 1, dy, 1), "cublasSetVector y");

    const float alpha = 2.0f;
    checkCublas(cublasSaxpy(handle, n, &alpha, dx, 1, dy, 1), "cublasSaxpy");

    float dot = 0.0f, norm = 0.0f;
    checkCublas(cublasSdot(handle, n, dx, 1, dy, 1, &dot), "cublasSdot");
    checkCublas(cublasSnrm2(handle, n, dy, 1, &norm), "cublasSnrm2");

    const float half = 0.5f;
    checkCublas(cublasSscal(handle, n, &half, dy, 1), "cublasSscal");
    int maxIndex = 0;
    checkCublas(cublasIsamax(handle, n, dy, 1, &maxIndex), "cublasIsamax");

    // Device-side result for dot: no host synchronisation inside the call.
    float *dDot = nullptr;
    CUDA_CHECK(cudaMalloc(&dDot, sizeof(float)));
    checkCublas(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE), "pointer mode");
    checkCublas(cublasSdot(handle, n, dx, 1, dx, 1, dDot), "cublasSdot device");
    checkCublas(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST), "pointer mode");

    checkCublas(cublasGetVector(n, sizeof(float), dy, 1, y.data(), 1), "cublasGetVector");
    std::printf("dot %f, norm %f, amax index %d (1-based), y[0] %f\n", dot, norm, maxIndex, y[0]);

    checkCublas(cublasDestroy(handle), "cublasDestroy");
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dy));
    CUDA_CHECK(cudaFree(dDot));
    return 0;
}
