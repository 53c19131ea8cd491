// launch.cuh - launch macros and grid helpers shared by template-heavy programs.
#ifndef CORPUS_LAUNCH_CUH
#define CORPUS_LAUNCH_CUH

#include <cuda_runtime.h>
#include "common.cuh"

#ifndef CORPUS_BLOCK
#define CORPUS_BLOCK 256
#endif

// Launch a kernel over n elements on a stream, then check the launch.
#define LAUNCH(kernel, n, stream, ...)                                          \
    do {                                                                        \
        dim3 grid_((static_cast<unsigned int>(n) + CORPUS_BLOCK - 1) / CORPUS_BLOCK); \
        dim3 block_(CORPUS_BLOCK);                                              \
        kernel<<<grid_, block_, 0, stream>>>(__VA_ARGS__);                      \
        CUDA_CHECK(cudaGetLastError());                                         \
    } while (0)

// Same, with dynamic shared memory bytes.
#define LAUNCH_SHMEM(kernel, grid, block, shmem, ...)                           \
    kernel<<<(grid), (block), (shmem)>>>(__VA_ARGS__)

template <typename T>
struct DeviceBuffer {
    T *ptr = nullptr;
    size_t count = 0;

    explicit DeviceBuffer(size_t n) : count(n)
    {
        CUDA_CHECK(cudaMalloc(reinterpret_cast<void **>(&ptr), n * sizeof(T)));
    }
    ~DeviceBuffer() { cudaFree(ptr); }
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;

    void upload(const T *host) { CUDA_CHECK(cudaMemcpy(ptr, host, count * sizeof(T), cudaMemcpyHostToDevice)); }
    void download(T *host) const { CUDA_CHECK(cudaMemcpy(host, ptr, count * sizeof(T), cudaMemcpyDeviceToHost)); }
};

#endif // CORPUS_LAUNCH_CUH
