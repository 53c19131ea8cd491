// 256-bin byte histogram: shared-memory privatisation, then global atomics.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

__global__ void hist256(const unsigned char *in, int n, unsigned int *out) {
  __shared__ unsigned int bins[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) bins[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&bins[in[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&out[b], bins[b]);
}

int main() {
  const int n = 1 << 20;
  std::vector<unsigned char> host(n);
  for (int i = 0; i < n; ++i) host[i] = (unsigned char)(i & 0xff);
  unsigned char *d_in;
  unsigned int *d_out;
  cudaMalloc(&d_in, n);
  cudaMalloc(&d_out, 256 * sizeof(unsigned int));
  cudaMemcpy(d_in, host.data(), n, cudaMemcpyHostToDevice);
  cudaMemset(d_out, 0, 256 * sizeof(unsigned int));
  hist256<<<64, 256>>>(d_in, n, d_out);
  unsigned int bins[256];
  cudaMemcpy(bins, d_out, sizeof(bins), cudaMemcpyDeviceToHost);
  printf("%u\n", bins[7]);
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
