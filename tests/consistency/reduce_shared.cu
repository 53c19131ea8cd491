// Block-wise sum reduction in shared memory, then a second pass on the host.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      return 1;                                                                \
    }                                                                          \
  } while (0)

constexpr int kBlock = 256;

__global__ void block_sum(const float *in, float *partial, int n) {
  __shared__ float tile[kBlock];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) tile[threadIdx.x] += tile[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = tile[0];
}

int main() {
  const int n = 1 << 20;
  const int blocks = (n + kBlock - 1) / kBlock;
  std::vector<float> host(n, 1.0f), sums(blocks);
  float *d_in = nullptr, *d_partial = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_partial, blocks * sizeof(float)));
  CHECK(cudaMemcpy(d_in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  block_sum<<<blocks, kBlock>>>(d_in, d_partial, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(sums.data(), d_partial, blocks * sizeof(float), cudaMemcpyDeviceToHost));
  double total = 0;
  for (float s : sums) total += s;
  printf("sum = %.0f\n", total);
  cudaFree(d_in);
  cudaFree(d_partial);
  return 0;
}
