// shared_dynamic_reduce.cu - block reduction into an extern __shared__ array
// sized at launch time, as a template over the element type.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "common.cuh"

// Dynamic shared memory must be declared once per type; alias it through
// a byte array so the template can be instantiated for several types.
template <typename T>
__device__ T *sharedScratch()
{
    extern __shared__ unsigned char scratchBytes[];
    return reinterpret_cast<T *>(scratchBytes);
}

template <typename T>
__global__ void reduceSum(const T *in, T *blockSums, size_t n)
{
    T *cache = sharedScratch<T>();
    unsigned int tid = threadIdx.x;
    size_t i = blockIdx.x * (blockDim.x * 2ull) + tid;

    T v = T(0);
    if (i < n) v += in[i];
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    cache[tid] = v;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            cache[tid] += cache[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) {
        blockSums[blockIdx.x] = cache[0];
    }
}

// A plain (non-template) kernel with its own extern array.
__global__ void prefixInBlock(int *data)
{
    extern __shared__ int temp[];
    int tid = threadIdx.x;
    temp[tid] = data[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (int offset = 1; offset < blockDim.x; offset <<= 1) {
        int add = (tid >= offset) ? temp[tid - offset] : 0;
        __syncthreads();
        temp[tid] += add;
        __syncthreads();
    }
    data[blockIdx.x * blockDim.x + tid] = temp[tid];
}

template <typename T>
static T sumOnDevice(const std::vector<T> &host, unsigned int threads)
{
    size_t n = host.size();
    unsigned int blocks = static_cast<unsigned int>((n + threads * 2 - 1) / (threads * 2));
    T *dIn = nullptr, *dPartial = nullptr;
    CUDA_CHECK(cudaMalloc(&dIn, n * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&dPartial, blocks * sizeof(T)));
    CUDA_CHECK(cudaMemcpy(dIn, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));

    size_t shmem = threads * sizeof(T);
    reduceSum<T><<<blocks, threads, shmem>>>(dIn, dPartial, n);
    CUDA_CHECK_KERNEL();

    std::vector<T> partial(blocks);
    CUDA_CHECK(cudaMemcpy(partial.data(), dPartial, blocks * sizeof(T), cudaMemcpyDeviceToHost));
    T total = T(0);
    for (T p : partial) total += p;
    CUDA_CHECK(cudaFree(dIn));
    CUDA_CHECK(cudaFree(dPartial));
    return total;
}

int main()
{
    std::vector<float> f(100000, 0.5f);
    std::vector<double> d(77777, 2.0);
    std::printf("float sum %f, double sum %f\n", sumOnDevice(f, 256), sumOnDevice(d, 512));

    int *dData = nullptr;
    CUDA_CHECK(cudaMalloc(&dData, 4 * 128 * sizeof(int)));
    CUDA_CHECK(cudaMemset(dData, 0, 4 * 128 * sizeof(int)));
    prefixInBlock<<<4, 128, 128 * sizeof(int)>>>(dData);
    CUDA_CHECK_KERNEL();
    CUDA_CHECK(cudaFuncSetAttribute(reduceSum<float>, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
    CUDA_CHECK(cudaFree(dData));
    return 0;
}
