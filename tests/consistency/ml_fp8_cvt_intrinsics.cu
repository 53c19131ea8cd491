// fp8 conversions through the cuda_fp8.h C intrinsics with saturation (KV-cache packing).
#include <cuda_fp8.h>
#include <cuda_runtime.h>

__global__ void pack(const float* k, __nv_fp8_storage_t* cache, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) cache[i] = __nv_cvt_float_to_fp8(k[i], __NV_SATFINITE, __NV_E4M3);
}

__global__ void pack_e5m2(const float* v, __nv_fp8_storage_t* cache, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) cache[i] = __nv_cvt_float_to_fp8(v[i], __NV_SATFINITE, __NV_E5M2);
}

int main() {
  float* k;
  __nv_fp8_storage_t* c;
  cudaMalloc(&k, 512 * sizeof(float));
  cudaMalloc(&c, 512);
  pack<<<2, 256>>>(k, c, 512);
  pack_e5m2<<<2, 256>>>(k, c, 512);
  cudaDeviceSynchronize();
  cudaFree(k);
  cudaFree(c);
  return 0;
}
