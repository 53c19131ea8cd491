// Host callbacks on a stream, declared with CUDART_CB as CUDA's samples do.
#include <cuda_runtime.h>
#include <cstdio>

static void CUDART_CB report(cudaStream_t stream, cudaError_t status, void *data)
{
    printf("stream done: %d %s\n", *static_cast<int *>(data), cudaGetErrorName(status));
}

typedef void (CUDART_CB *callback_t)(void *);

static void CUDART_CB
host_step(void *data)
{
    ++*static_cast<int *>(data);
}

int main()
{
    cudaStream_t s;
    cudaStreamCreate(&s);
    static int tag = 7;
    cudaStreamAddCallback(s, report, &tag, 0);
    callback_t step = host_step;
    cudaLaunchHostFunc(s, step, &tag);
    cudaStreamSynchronize(s);
    return 0;
}
