// nvrtc_compile.cu - runtime compilation with NVRTC: build a kernel from a
// string, read the log and the PTX, then load and launch it with the driver
// API on the primary context.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <cuda.h>
#include <nvrtc.h>

#define NVRTC_CHECK(call)                                                       \
    do {                                                                        \
        nvrtcResult r_ = (call);                                                \
        if (r_ != NVRTC_SUCCESS) {                                              \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, nvrtcGetErrorString(r_)); \
            std::exit(EXIT_FAILURE);                                            \
        }                                                                       \
    } while (0)

#define CU_CHECK(call)                                                          \
    do {                                                                        \
        CUresult r_ = (call);                                                   \
        if (r_ != CUDA_SUCCESS) {                                               \
            std::fprintf(stderr, "%s:%d: driver error %d\n", __FILE__, __LINE__, \
                         static_cast<int>(r_));                                 \
            std::exit(EXIT_FAILURE);                                            \
        }                                                                       \
    } while (0)

static const char *kSource = R"(
template <typename T>
__global__ void scaleBy(T *data, T factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= factor;
}
)";

int main()
{
    nvrtcProgram prog;
    NVRTC_CHECK(nvrtcCreateProgram(&prog, kSource, "scale.cu", 0, nullptr, nullptr));
    NVRTC_CHECK(nvrtcAddNameExpression(prog, "scaleBy<float>"));

    const char *options[] = {"--gpu-architecture=compute_80", "--std=c++17", "-default-device"};
    nvrtcResult compiled = nvrtcCompileProgram(prog, 3, options);

    size_t logSize = 0;
    NVRTC_CHECK(nvrtcGetProgramLogSize(prog, &logSize));
    std::string log(logSize, '\0');
    NVRTC_CHECK(nvrtcGetProgramLog(prog, &log[0]));
    if (compiled != NVRTC_SUCCESS) {
        std::fprintf(stderr, "compile failed:\n%s\n", log.c_str());
        return 1;
    }

    size_t ptxSize = 0;
    NVRTC_CHECK(nvrtcGetPTXSize(prog, &ptxSize));
    std::vector<char> ptx(ptxSize);
    NVRTC_CHECK(nvrtcGetPTX(prog, ptx.data()));
    const char *lowered = nullptr;
    NVRTC_CHECK(nvrtcGetLoweredName(prog, "scaleBy<float>", &lowered));
    std::string kernelName(lowered);

    int major = 0, minor = 0;
    NVRTC_CHECK(nvrtcVersion(&major, &minor));
    std::printf("NVRTC %d.%d produced %zu bytes of PTX\n", major, minor, ptxSize);
    NVRTC_CHECK(nvrtcDestroyProgram(&prog));

    CU_CHECK(cuInit(0));
    CUdevice dev;
    CU_CHECK(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CU_CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU_CHECK(cuCtxSetCurrent(ctx));

    CUmodule module;
    CUfunction kernel;
    CU_CHECK(cuModuleLoadDataEx(&module, ptx.data(), 0, nullptr, nullptr));
    CU_CHECK(cuModuleGetFunction(&kernel, module, kernelName.c_str()));

    const int n = 4096;
    CUdeviceptr data;
    CU_CHECK(cuMemAlloc(&data, n * sizeof(float)));
    CU_CHECK(cuMemsetD32(data, 0x3f800000u, n)); // 1.0f
    float factor = 3.0f;
    int count = n;
    void *args[] = {&data, &factor, &count};
    CU_CHECK(cuLaunchKernel(kernel, n / 128, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
    CU_CHECK(cuCtxSynchronize());

    float first = 0.0f;
    CU_CHECK(cuMemcpyDtoH(&first, data, sizeof(float)));
    std::printf("data[0] = %f (expect 3)\n", first);

    CU_CHECK(cuMemFree(data));
    CU_CHECK(cuModuleUnload(module));
    CU_CHECK(cuDevicePrimaryCtxRelease(dev));
    return 0;
}
