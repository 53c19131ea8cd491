// C = alpha * A * B + beta * C with cuBLAS (column-major), checked on the host.
#include <cstdio>
#include <vector>
#include <cublas_v2.h>
#include <cuda_runtime.h>

int main() {
  const int n = 64;
  std::vector<float> a(n * n, 1.f), b(n * n, 2.f), c(n * n, 0.f);
  float *da, *db, *dc;
  cudaMalloc(&da, n * n * sizeof(float));
  cudaMalloc(&db, n * n * sizeof(float));
  cudaMalloc(&dc, n * n * sizeof(float));
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasSetMatrix(n, n, sizeof(float), a.data(), n, da, n);
  cublasSetMatrix(n, n, sizeof(float), b.data(), n, db, n);
  const float alpha = 1.f, beta = 0.f;
  cublasStatus_t st =
      cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, da, n, db, n, &beta, dc, n);
  cublasGetMatrix(n, n, sizeof(float), dc, n, c.data(), n);
  printf("status %d, c[0] = %.1f\n", int(st), c[0]);
  cublasDestroy(handle);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return 0;
}
