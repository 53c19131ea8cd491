// template_kernels.cu - kernels templated on type, block size and functor,
// launched with explicit and deduced template arguments.
#include <cstdio>
#include <cuda_runtime.h>
#include "launch.cuh"

struct Square {
    template <typename T>
    __device__ T operator()(T v) const { return v * v; }
};

struct AddConst {
    float c;
    __device__ float operator()(float v) const { return v + c; }
};

template <typename T, typename Op>
__global__ void transform(const T *in, T *out, size_t n, Op op)
{
    size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) out[i] = op(in[i]);
}

template <int BLOCK, typename T>
__global__ void blockSum(const T *in, T *out, int n)
{
    __shared__ T cache[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    cache[threadIdx.x] = (i < n) ? in[i] : T(0);
    __syncthreads();
#pragma unroll
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = cache[0];
}

template <typename T>
void runTransform(const DeviceBuffer<T> &in, DeviceBuffer<T> &out)
{
    const unsigned int threads = 128;
    transform<<<ceilDiv(in.count, threads), threads>>>(in.ptr, out.ptr, in.count, Square{});
    CUDA_CHECK_KERNEL();
}

template <int BLOCK>
void runBlockSum(const float *in, float *out, int n, cudaStream_t stream)
{
    blockSum<BLOCK, float><<<(n + BLOCK - 1) / BLOCK, BLOCK, 0, stream>>>(in, out, n);
}

int main()
{
    const size_t n = 10000;
    DeviceBuffer<float> a(n), b(n);
    DeviceBuffer<double> c(n), d(n);
    CUDA_CHECK(cudaMemset(a.ptr, 0, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(c.ptr, 0, n * sizeof(double)));

    runTransform(a, b);
    runTransform<double>(c, d);
    transform<float, AddConst><<<ceilDiv(n, 256), 256>>>(a.ptr, b.ptr, n, AddConst{1.5f});
    CUDA_CHECK_KERNEL();

    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    runBlockSum<128>(b.ptr, a.ptr, static_cast<int>(n), stream);
    runBlockSum<256>(b.ptr, a.ptr, static_cast<int>(n), stream);
    LAUNCH((transform<float, Square>), n, stream, a.ptr, b.ptr, n, Square{});
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaStreamDestroy(stream));

    float first = 0.0f;
    CUDA_CHECK(cudaMemcpy(&first, b.ptr, sizeof(float), cudaMemcpyDeviceToHost));
    std::printf("b[0] = %f\n", first);
    return 0;
}
