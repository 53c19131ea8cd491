// saxpy: y = alpha * x + y on random input, timed with events, checked by a
// device reduction against the same sum computed on the host.
#include <cmath>
#include <vector>

#include "kernels.cuh"

// alpha lives in constant memory: every thread reads the same value.
__constant__ float c_alpha;

__global__ void saxpy_const_kernel(const float* __restrict__ x, float* __restrict__ y, size_t n)
{
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = c_alpha * x[i] + y[i];
    }
}

int main()
{
    const size_t n = size_t{1} << 22;
    const size_t bytes = n * sizeof(float);
    const float alpha = 2.5f;

    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    std::printf("device %d: %s, %d SMs, warp size %d\n", device, prop.name,
                prop.multiProcessorCount, prop.warpSize);

    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));

    float *d_x = nullptr, *d_y = nullptr;
    CUDA_CHECK(cudaMalloc(&d_x, bytes));
    CUDA_CHECK(cudaMalloc(&d_y, bytes));

    fill_uniform(d_x, n, 1234ULL, stream);
    std::vector<float> h_y(n, 1.0f);
    CUDA_CHECK(cudaMemcpyAsync(d_y, h_y.data(), bytes, cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemcpyToSymbol(c_alpha, &alpha, sizeof(alpha)));

    std::vector<float> h_x(n);
    CUDA_CHECK(cudaMemcpyAsync(h_x.data(), d_x, bytes, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));

    const dim3 block(256);
    const dim3 grid(static_cast<unsigned>((n + block.x - 1) / block.x));
    CUDA_CHECK(cudaEventRecord(start, stream));
    saxpy_const_kernel<<<grid, block, 0, stream>>>(d_x, d_y, n);
    CUDA_CHECK(cudaGetLastError());
    // The same update again through the template kernel: y = alpha*x + (alpha*x + 1).
    axpy_kernel<float><<<grid, block, 0, stream>>>(alpha, d_x, d_y, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(stop, stream));
    CUDA_CHECK(cudaEventSynchronize(stop));

    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));

    const float device_total = device_sum(d_y, n, stream);
    double host_total = 0.0;
    for (size_t i = 0; i < n; ++i) {
        host_total += 2.0 * alpha * h_x[i] + 1.0;
    }
    const double rel = std::fabs(device_total - host_total) / host_total;
    std::printf("2 x saxpy on %zu floats: %.3f ms, sum %.6e (host %.6e, rel err %.2e)\n", n,
                ms, static_cast<double>(device_total), host_total, rel);

    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_y));
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaStreamDestroy(stream));
    return rel < 1e-3 ? EXIT_SUCCESS : EXIT_FAILURE;
}
