// A pipeline whose own names look like CUDA's: cuda_* buffers, a cudaParams struct, CUDA_* enums.
#include <cstdio>
#include <cuda_runtime.h>

enum CudaStage { CUDA_STAGE_LOAD, CUDA_STAGE_RUN = 4, CUDA_STAGE_DONE };

struct cudaParams {
  int cuda_width, cuda_height;
  float *cuda_in_buf, *cuda_out_buf;
};

typedef struct {
  int cudaCount;
} cudaStats_t;

static int cuda_lo = 0, cuda_hi = 255;

template <typename cudaT, int CUDA_UNROLL>
__global__ void clamp_kernel(cudaT *cuda_data, int cuda_n, cudaT cuda_min, cudaT cuda_max) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int u = 0; u < CUDA_UNROLL; ++u, i += gridDim.x * blockDim.x) {
    if (i < cuda_n) cuda_data[i] = min(max(cuda_data[i], cuda_min), cuda_max);
  }
}

static void cudaRunStage(const cudaParams &cuda_p, cudaStats_t *cuda_stats) {
  int cuda_total = cuda_p.cuda_width * cuda_p.cuda_height;
  clamp_kernel<float, 2><<<(cuda_total + 511) / 512, 256>>>(cuda_p.cuda_in_buf, cuda_total,
                                                            float(cuda_lo), float(cuda_hi));
  cuda_stats->cudaCount += cuda_total;
}

int main() {
  cudaParams cuda_params = {16, 16, nullptr, nullptr};
  cudaMalloc(&cuda_params.cuda_in_buf, 256 * sizeof(float));
  cuda_params.cuda_out_buf = cuda_params.cuda_in_buf;
  cudaStats_t cuda_stats = {0};
  CudaStage stage = CUDA_STAGE_RUN;
  cudaRunStage(cuda_params, &cuda_stats);
  cudaError_t cudaStatus = cudaDeviceSynchronize();
  printf("%d %d %s\n", int(stage), cuda_stats.cudaCount, cudaGetErrorString(cudaStatus));
  cudaFree(cuda_params.cuda_in_buf);
  return cudaStatus == cudaSuccess ? 0 : 1;
}
