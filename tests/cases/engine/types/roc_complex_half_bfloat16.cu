#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuComplex.h>
template <typename T> struct Tile { T v[4]; };
__global__ void to_half(const float* in, __half* out, __nv_bfloat16* bf) {
  out[threadIdx.x] = __float2half(in[threadIdx.x]);
  bf[threadIdx.x] = static_cast<__nv_bfloat16>(in[threadIdx.x]);
}
void axpy(cublasHandle_t h, int n, const cuComplex* alpha, const cuComplex* x, cuComplex* y,
          cuDoubleComplex z, Tile<cuFloatComplex>* t) {
  cublasCaxpy(h, n, alpha, x, 1, y, 1);
  (void)z;
  (void)t;
}
