// cuda_version_branches.cu - code that chooses APIs by CUDA_VERSION,
// CUDART_VERSION, __CUDACC_VER_MAJOR__ and __CUDA_ARCH__, as long-lived
// projects do.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
#include "common.cuh"
#include "host_device_macros.cuh"

#if !defined(CUDA_VERSION) || CUDA_VERSION < 11000
#error "this program needs CUDA 11 or newer"
#endif

#if CUDART_VERSION >= 12000
#define HAVE_GRAPH_INSTANTIATE_FLAGS 1
#endif

__global__ void normalizeAll(Vec3 *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    // Ampere and newer: use the hardware reciprocal square root path.
    v[i] = normalize(v[i]);
#elif defined(__CUDA_ARCH__)
    float len = sqrtf(dot(v[i], v[i]));
    v[i] = (1.0f / len) * v[i];
#endif
}

static void describeToolchain()
{
#ifdef __CUDACC__
    std::printf("compiled by nvcc %d.%d\n", __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__);
#endif
    std::printf("CUDA_VERSION %d, CUDART_VERSION %d\n", CUDA_VERSION, CUDART_VERSION);
}

static int clockRateKHz(int device)
{
    int khz = 0;
#if CUDA_VERSION >= 12000
    CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
#else
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    khz = prop.clockRate;
#endif
    return khz;
}

int main()
{
    describeToolchain();
    std::printf("clock %d kHz\n", clockRateKHz(0));

    const int n = 1024;
    Vec3 *v = nullptr;
    CUDA_CHECK(cudaMallocManaged(&v, n * sizeof(Vec3)));
    for (int i = 0; i < n; ++i) v[i] = make_vec3(1.0f, 2.0f, 2.0f);

    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    cudaGraph_t graph;
    CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    normalizeAll<<<n / 128, 128, 0, stream>>>(v, n);
    CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    cudaGraphExec_t exec;
#if defined(HAVE_GRAPH_INSTANTIATE_FLAGS)
    CUDA_CHECK(cudaGraphInstantiate(&exec, graph, cudaGraphInstantiateFlagAutoFreeOnLaunch));
#else
    CUDA_CHECK(cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
#endif
    CUDA_CHECK(cudaGraphLaunch(exec, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    std::printf("v[0] = (%f, %f, %f)\n", v[0].x, v[0].y, v[0].z);

    // Scratch memory: stream-ordered where the runtime has it (11.2+).
    void *scratch = nullptr;
#if CUDA_VERSION >= 11020
    CUDA_CHECK(cudaMallocAsync(&scratch, 1 << 20, stream));
    CUDA_CHECK(cudaFreeAsync(scratch, stream));
#else
    CUDA_CHECK(cudaMalloc(&scratch, 1 << 20));
    CUDA_CHECK(cudaFree(scratch));
#endif
    CUDA_CHECK(cudaGraphExecDestroy(exec));
    CUDA_CHECK(cudaGraphDestroy(graph));
    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(v));
    return 0;
}
