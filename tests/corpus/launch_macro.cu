// launch_macro.cu - kernel launches hidden inside macros: the LAUNCH macro
// from launch.cuh, a local macro with dynamic shared memory, and a macro that
// expands to a whole dispatch on a runtime value.
#include <cstdio>
#include <cuda_runtime.h>
#include "launch.cuh"

__global__ void fill(int *data, int value, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = value;
}

__global__ void reverseBlock(int *data)
{
    extern __shared__ int s[];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    s[t] = data[base + t];
    __syncthreads();
    data[base + t] = s[blockDim.x - 1 - t];
}

template <int RADIUS>
__global__ void boxBlur(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int acc = 0;
    for (int k = -RADIUS; k <= RADIUS; ++k) {
        int j = min(max(i + k, 0), n - 1);
        acc += in[j];
    }
    out[i] = acc / (2 * RADIUS + 1);
}

#define RUN_REVERSE(ptr, blocks, threads) \
    reverseBlock<<<(blocks), (threads), (threads) * sizeof(int)>>>(ptr)

#define DISPATCH_RADIUS(r, ...)                                   \
    switch (r) {                                                  \
    case 1: boxBlur<1><<<64, 256>>>(__VA_ARGS__); break;          \
    case 2: boxBlur<2><<<64, 256>>>(__VA_ARGS__); break;          \
    default: boxBlur<4><<<64, 256>>>(__VA_ARGS__); break;         \
    }

int main(int argc, char **argv)
{
    const int n = 64 * 256;
    int *a = nullptr, *b = nullptr;
    CUDA_CHECK(cudaMalloc(&a, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&b, n * sizeof(int)));

    cudaStream_t stream = 0;
    LAUNCH(fill, n, stream, a, 3, n);
    RUN_REVERSE(a, n / 256, 256);
    CUDA_CHECK(cudaGetLastError());

    int radius = argc > 1 ? argv[1][0] - '0' : 2;
    DISPATCH_RADIUS(radius, a, b, n);
    CUDA_CHECK_KERNEL();

    LAUNCH_SHMEM(reverseBlock, dim3(n / 128), dim3(128), 128 * sizeof(int), b);
    CUDA_CHECK_KERNEL();

    int first = 0;
    CUDA_CHECK(cudaMemcpy(&first, b, sizeof(int), cudaMemcpyDeviceToHost));
    std::printf("b[0] = %d\n", first);
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    return 0;
}
