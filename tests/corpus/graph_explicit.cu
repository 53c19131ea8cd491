// graph_explicit.cu - build a graph node by node: memset, kernel, memcpy and
// host nodes with explicit dependencies, then update a kernel's arguments.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
#include "common.cuh"

__global__ void addValue(int *data, int value, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] += value;
}

static void CUDART_CB report(void *arg)
{
    std::printf("graph finished, first element %d\n", *static_cast<int *>(arg));
}

int main()
{
    const int n = 4096;
    int *dev = nullptr;
    int *host = nullptr;
    CUDA_CHECK(cudaMalloc(&dev, n * sizeof(int)));
    CUDA_CHECK(cudaMallocHost(&host, n * sizeof(int)));

    cudaGraph_t graph;
    CUDA_CHECK(cudaGraphCreate(&graph, 0));

    cudaMemsetParams memsetParams = {};
    memsetParams.dst = dev;
    memsetParams.value = 0;
    memsetParams.elementSize = sizeof(int);
    memsetParams.width = n;
    memsetParams.height = 1;
    cudaGraphNode_t memsetNode;
    CUDA_CHECK(cudaGraphAddMemsetNode(&memsetNode, graph, nullptr, 0, &memsetParams));

    int value = 7;
    int count = n;
    void *kernelArgs[] = {&dev, &value, &count};
    cudaKernelNodeParams kp = {};
    kp.func = reinterpret_cast<void *>(addValue);
    kp.gridDim = dim3((n + 255) / 256);
    kp.blockDim = dim3(256);
    kp.sharedMemBytes = 0;
    kp.kernelParams = kernelArgs;
    kp.extra = nullptr;
    cudaGraphNode_t kernelNode;
    CUDA_CHECK(cudaGraphAddKernelNode(&kernelNode, graph, &memsetNode, 1, &kp));

    cudaGraphNode_t copyNode;
    CUDA_CHECK(cudaGraphAddMemcpyNode1D(&copyNode, graph, nullptr, 0, host, dev,
                                        n * sizeof(int), cudaMemcpyDeviceToHost));

    cudaHostNodeParams hp = {};
    hp.fn = report;
    hp.userData = host;
    cudaGraphNode_t hostNode;
    CUDA_CHECK(cudaGraphAddHostNode(&hostNode, graph, &copyNode, 1, &hp));

    // The copy depends on the kernel; added after the fact.
#if CUDA_VERSION >= 13000
    CUDA_CHECK(cudaGraphAddDependencies(graph, &kernelNode, &copyNode, nullptr, 1));
#else
    CUDA_CHECK(cudaGraphAddDependencies(graph, &kernelNode, &copyNode, 1));
#endif

    cudaGraphExec_t exec;
    CUDA_CHECK(cudaGraphInstantiateWithFlags(&exec, graph, 0));
    CUDA_CHECK(cudaGraphLaunch(exec, 0));
    CUDA_CHECK(cudaDeviceSynchronize());

    // Change the kernel's argument without rebuilding the graph.
    value = 11;
    CUDA_CHECK(cudaGraphExecKernelNodeSetParams(exec, kernelNode, &kp));
    CUDA_CHECK(cudaGraphLaunch(exec, 0));
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaGraphExecDestroy(exec));
    CUDA_CHECK(cudaGraphDestroy(graph));
    CUDA_CHECK(cudaFreeHost(host));
    CUDA_CHECK(cudaFree(dev));
    return 0;
}
