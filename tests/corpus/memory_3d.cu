// memory_3d.cu - cudaMalloc3D with a cudaPitchedPtr, cudaMemcpy3D from host,
// cudaMemset3D, and a 3D array for completeness.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "common.cuh"

__global__ void fillVolume(cudaPitchedPtr vol, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z;
    if (x >= nx || y >= ny || z >= nz) {
        return;
    }
    char *slice = static_cast<char *>(vol.ptr) + z * vol.pitch * ny;
    float *row = reinterpret_cast<float *>(slice + y * vol.pitch);
    row[x] += static_cast<float>(x + y + z);
}

int main()
{
    const int nx = 64, ny = 32, nz = 16;
    cudaExtent extent = make_cudaExtent(nx * sizeof(float), ny, nz);

    cudaPitchedPtr vol;
    CUDA_CHECK(cudaMalloc3D(&vol, extent));
    CUDA_CHECK(cudaMemset3D(vol, 0, extent));

    std::vector<float> host(static_cast<size_t>(nx) * ny * nz, 1.0f);
    cudaMemcpy3DParms up = {};
    up.srcPtr = make_cudaPitchedPtr(host.data(), nx * sizeof(float), nx, ny);
    up.dstPtr = vol;
    up.extent = extent;
    up.kind = cudaMemcpyHostToDevice;
    CUDA_CHECK(cudaMemcpy3D(&up));

    dim3 block(16, 16, 1);
    dim3 grid((nx + 15) / 16, (ny + 15) / 16, nz);
    fillVolume<<<grid, block>>>(vol, nx, ny, nz);
    CUDA_CHECK_KERNEL();

    cudaMemcpy3DParms down = {};
    down.srcPtr = vol;
    down.dstPtr = make_cudaPitchedPtr(host.data(), nx * sizeof(float), nx, ny);
    down.extent = extent;
    down.kind = cudaMemcpyDeviceToHost;
    CUDA_CHECK(cudaMemcpy3D(&down));
    std::printf("last voxel %f\n", host.back());

    // A 3D CUDA array, as a texture would use.
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t array = nullptr;
    CUDA_CHECK(cudaMalloc3DArray(&array, &desc, make_cudaExtent(nx, ny, nz)));
    cudaMemcpy3DParms toArray = {};
    toArray.srcPtr = vol;
    toArray.dstArray = array;
    toArray.extent = make_cudaExtent(nx, ny, nz);
    toArray.kind = cudaMemcpyDeviceToDevice;
    CUDA_CHECK(cudaMemcpy3D(&toArray));

    CUDA_CHECK(cudaFreeArray(array));
    CUDA_CHECK(cudaFree(vol.ptr));
    return 0;
}
