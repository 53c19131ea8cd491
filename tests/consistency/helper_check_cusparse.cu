// Dense-to-sparse bookkeeping with cuSPARSE handles, checked through the shared helper's cuSPARSE section.
#include <cuda_runtime.h>
#include <cusparse.h>

#include "common/helper_errors.h"

__global__ void identity_csr(int *row_ptr, int *col_idx, float *val, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    row_ptr[i] = i;
    col_idx[i] = i;
    val[i] = 1.0f;
  }
  if (i == 0) row_ptr[n] = n;
}

int main() {
  const int n = 1024;
  int *row_ptr, *col_idx;
  float *val;
  checkCudaErrors(cudaMalloc(&row_ptr, (n + 1) * sizeof(int)));
  checkCudaErrors(cudaMalloc(&col_idx, n * sizeof(int)));
  checkCudaErrors(cudaMalloc(&val, n * sizeof(float)));
  identity_csr<<<n / 256, 256>>>(row_ptr, col_idx, val, n);
  getLastCudaError("identity_csr");
  cusparseHandle_t handle;
  checkCudaErrors(cusparseCreate(&handle));
  cusparseMatDescr_t descr;
  checkCudaErrors(cusparseCreateMatDescr(&descr));
  checkCudaErrors(cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL));
  checkCudaErrors(cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO));
  int version = 0;
  checkCudaErrors(cusparseGetVersion(handle, &version));
  printf("cuSPARSE %d, base %d\n", version, int(cusparseGetMatIndexBase(descr)));
  checkCudaErrors(cusparseDestroyMatDescr(descr));
  checkCudaErrors(cusparseDestroy(handle));
  checkCudaErrors(cudaFree(row_ptr));
  checkCudaErrors(cudaFree(col_idx));
  checkCudaErrors(cudaFree(val));
  return 0;
}
