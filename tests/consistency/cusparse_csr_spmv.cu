// y = A x for a CSR matrix with cuSPARSE's generic API.
#include <cstdio>
#include <cusparse.h>
#include <cuda_runtime.h>

int main() {
  const int rows = 3, cols = 3, nnz = 4;
  int h_ptr[] = {0, 1, 3, 4}, h_idx[] = {0, 0, 1, 2};
  float h_val[] = {1.f, 2.f, 3.f, 4.f}, h_x[] = {1.f, 1.f, 1.f};
  int *ptr, *idx;
  float *val, *x, *y;
  cudaMalloc(&ptr, sizeof(h_ptr));
  cudaMalloc(&idx, sizeof(h_idx));
  cudaMalloc(&val, sizeof(h_val));
  cudaMalloc(&x, sizeof(h_x));
  cudaMalloc(&y, rows * sizeof(float));
  cudaMemcpy(ptr, h_ptr, sizeof(h_ptr), cudaMemcpyHostToDevice);
  cudaMemcpy(idx, h_idx, sizeof(h_idx), cudaMemcpyHostToDevice);
  cudaMemcpy(val, h_val, sizeof(h_val), cudaMemcpyHostToDevice);
  cudaMemcpy(x, h_x, sizeof(h_x), cudaMemcpyHostToDevice);
  cusparseHandle_t handle;
  cusparseCreate(&handle);
  cusparseSpMatDescr_t mat;
  cusparseDnVecDescr_t vx, vy;
  cusparseCreateCsr(&mat, rows, cols, nnz, ptr, idx, val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  cusparseCreateDnVec(&vx, cols, x, CUDA_R_32F);
  cusparseCreateDnVec(&vy, rows, y, CUDA_R_32F);
  float alpha = 1.f, beta = 0.f;
  size_t bytes = 0;
  cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat, vx, &beta, vy,
                          CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes);
  void *buffer;
  cudaMalloc(&buffer, bytes);
  cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat, vx, &beta, vy, CUDA_R_32F,
               CUSPARSE_SPMV_ALG_DEFAULT, buffer);
  float h_y[rows];
  cudaMemcpy(h_y, y, sizeof(h_y), cudaMemcpyDeviceToHost);
  printf("%.1f %.1f %.1f\n", h_y[0], h_y[1], h_y[2]);
  cusparseDestroySpMat(mat);
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cusparseDestroy(handle);
  return 0;
}
