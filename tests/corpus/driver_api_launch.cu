// driver_api_launch.cu - the CUDA driver API: cuInit, a context, a module
// loaded from a PTX/cubin file, cuModuleGetFunction and cuLaunchKernel with
// a kernel-parameter array.
#include <cstdio>
#include <cstdlib>
#include <cuda.h>

#define CU_CHECK(call)                                                          \
    do {                                                                        \
        CUresult r_ = (call);                                                   \
        if (r_ != CUDA_SUCCESS) {                                               \
            const char *name_ = nullptr;                                        \
            const char *text_ = nullptr;                                        \
            cuGetErrorName(r_, &name_);                                         \
            cuGetErrorString(r_, &text_);                                       \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__,         \
                         name_ ? name_ : "?", text_ ? text_ : "?");             \
            std::exit(EXIT_FAILURE);                                            \
        }                                                                       \
    } while (0)

static CUcontext createContext(CUdevice dev)
{
    CUcontext ctx = nullptr;
#if CUDA_VERSION >= 13000
    // CUDA 13: cuCtxCreate takes an optional CUctxCreateParams.
    CU_CHECK(cuCtxCreate(&ctx, nullptr, 0, dev));
#else
    CU_CHECK(cuCtxCreate(&ctx, 0, dev));
#endif
    return ctx;
}

int main(int argc, char **argv)
{
    const char *modulePath = argc > 1 ? argv[1] : "vector_add.ptx";

    CU_CHECK(cuInit(0));
    int deviceCount = 0;
    CU_CHECK(cuDeviceGetCount(&deviceCount));
    if (deviceCount == 0) {
        std::printf("no device\n");
        return 0;
    }
    CUdevice dev;
    CU_CHECK(cuDeviceGet(&dev, 0));
    char name[256];
    CU_CHECK(cuDeviceGetName(name, sizeof(name), dev));
    int major = 0, minor = 0;
    CU_CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CU_CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    std::printf("%s (sm_%d%d)\n", name, major, minor);

    CUcontext ctx = createContext(dev);

    CUmodule module;
    CU_CHECK(cuModuleLoad(&module, modulePath));
    CUfunction vectorAdd;
    CU_CHECK(cuModuleGetFunction(&vectorAdd, module, "vector_add"));

    const int n = 1 << 20;
    const size_t bytes = n * sizeof(float);
    float *hA = static_cast<float *>(std::malloc(bytes));
    float *hC = static_cast<float *>(std::malloc(bytes));
    for (int i = 0; i < n; ++i) hA[i] = static_cast<float>(i);

    CUdeviceptr dA, dB, dC;
    CU_CHECK(cuMemAlloc(&dA, bytes));
    CU_CHECK(cuMemAlloc(&dB, bytes));
    CU_CHECK(cuMemAlloc(&dC, bytes));
    CU_CHECK(cuMemcpyHtoD(dA, hA, bytes));
    CU_CHECK(cuMemcpyHtoD(dB, hA, bytes));

    CUstream stream;
    CU_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    int count = n;
    void *params[] = {&dA, &dB, &dC, &count};
    unsigned int threads = 256, blocks = (n + threads - 1) / threads;
    CU_CHECK(cuLaunchKernel(vectorAdd, blocks, 1, 1, threads, 1, 1, 0, stream, params, nullptr));
    CU_CHECK(cuMemcpyDtoHAsync(hC, dC, bytes, stream));
    CU_CHECK(cuStreamSynchronize(stream));
    std::printf("c[10] = %f\n", hC[10]);

    CU_CHECK(cuStreamDestroy(stream));
    CU_CHECK(cuMemFree(dA));
    CU_CHECK(cuMemFree(dB));
    CU_CHECK(cuMemFree(dC));
    CU_CHECK(cuModuleUnload(module));
    CU_CHECK(cuCtxDestroy(ctx));
    std::free(hA);
    std::free(hC);
    return 0;
}
