// memory_pitch2d.cu - pitched 2D allocation, cudaMemcpy2D in both directions
// and a kernel that walks rows through the pitch.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "common.cuh"

__global__ void addRowIndex(float *base, size_t pitchBytes, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        float *row = reinterpret_cast<float *>(reinterpret_cast<char *>(base) + y * pitchBytes);
        row[x] += static_cast<float>(y);
    }
}

int main()
{
    const int width = 1000;
    const int height = 600;
    std::vector<float> host(static_cast<size_t>(width) * height, 1.0f);

    float *dev = nullptr;
    size_t pitch = 0;
    CUDA_CHECK(cudaMallocPitch(reinterpret_cast<void **>(&dev), &pitch, width * sizeof(float), height));
    std::printf("requested row %zu bytes, got pitch %zu\n", width * sizeof(float), pitch);

    CUDA_CHECK(cudaMemset2D(dev, pitch, 0, width * sizeof(float), height));
    CUDA_CHECK(cudaMemcpy2D(dev, pitch, host.data(), width * sizeof(float),
                            width * sizeof(float), height, cudaMemcpyHostToDevice));

    dim3 block(32, 8);
    dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
    addRowIndex<<<grid, block>>>(dev, pitch, width, height);
    CUDA_CHECK_KERNEL();

    CUDA_CHECK(cudaMemcpy2D(host.data(), width * sizeof(float), dev, pitch,
                            width * sizeof(float), height, cudaMemcpyDeviceToHost));

    // Copy a sub-rectangle into a second pitched buffer.
    float *sub = nullptr;
    size_t subPitch = 0;
    CUDA_CHECK(cudaMallocPitch(&sub, &subPitch, 100 * sizeof(float), 50));
    CUDA_CHECK(cudaMemcpy2D(sub, subPitch, dev, pitch, 100 * sizeof(float), 50,
                            cudaMemcpyDeviceToDevice));

    std::printf("host[599][0] = %f (expect 600)\n", host[599u * width]);
    CUDA_CHECK(cudaFree(sub));
    CUDA_CHECK(cudaFree(dev));
    return 0;
}
