// Host callbacks (CUDART_CB) after each chunk of a streamed job: stream callbacks and host functions.
#include <atomic>
#include <cstdio>
#include <cuda_runtime.h>

struct Progress {
  std::atomic<int> chunks{0};
  int total = 0;
};

static void CUDART_CB chunk_done(cudaStream_t stream, cudaError_t status, void *data) {
  (void)stream;
  auto *p = static_cast<Progress *>(data);
  int done = ++p->chunks;
  if (status != cudaSuccess) fprintf(stderr, "chunk failed: %s\n", cudaGetErrorString(status));
  else printf("%d/%d\n", done, p->total);
}

static void CUDART_CB all_done(void *data) {
  printf("job finished after %d chunks\n", static_cast<Progress *>(data)->chunks.load());
}

__global__ void square(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= x[i];
}

int main() {
  const int chunk = 1 << 16, chunks = 8;
  float *host, *dev;
  cudaMallocHost(&host, chunk * chunks * sizeof(float));
  cudaMalloc(&dev, chunk * chunks * sizeof(float));
  for (int i = 0; i < chunk * chunks; ++i) host[i] = float(i % 7);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  Progress progress;
  progress.total = chunks;
  for (int c = 0; c < chunks; ++c) {
    float *h = host + c * chunk, *d = dev + c * chunk;
    cudaMemcpyAsync(d, h, chunk * sizeof(float), cudaMemcpyHostToDevice, stream);
    square<<<chunk / 256, 256, 0, stream>>>(d, chunk);
    cudaMemcpyAsync(h, d, chunk * sizeof(float), cudaMemcpyDeviceToHost, stream);
    cudaStreamAddCallback(stream, chunk_done, &progress, 0);
  }
  cudaLaunchHostFunc(stream, all_done, &progress);
  cudaStreamSynchronize(stream);
  cudaStreamDestroy(stream);
  cudaFree(dev);
  cudaFreeHost(host);
  return 0;
}
