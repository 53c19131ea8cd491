// A three-kernel pipeline captured once into a graph and replayed every frame.
#include "runtime.cuh"

__global__ void scale(float *x, int n, float a) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

__global__ void shift(float *x, int n, float b) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += b;
}

__global__ void clamp01(float *x, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = fminf(1.0f, fmaxf(0.0f, x[i]));
}

static cudaError_t instantiate(cudaGraphExec_t *exec, cudaGraph_t graph) {
#if defined(CUDART_VERSION) && CUDART_VERSION >= 12000
    return cudaGraphInstantiate(exec, graph, 0);
#else
    // CUDA 11 and HIP: the error node and log buffer come first.
    cudaGraphNode_t error_node = nullptr;
    return cudaGraphInstantiate(exec, graph, &error_node, nullptr, 0);
#endif
}

class FramePipeline {
  public:
    FramePipeline(float *data, int n) : data_(data), n_(n) { cudaStreamCreate(&stream_); }

    cudaError_t capture() {
        cudaError_t err = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal);
        if (err != cudaSuccess) return err;
        const int blocks = (n_ + 255) / 256;
        cudaMemsetAsync(data_, 0, sizeof(float), stream_);
        scale<<<blocks, 256, 0, stream_>>>(data_, n_, 0.5f);
        shift<<<blocks, 256, 0, stream_>>>(data_, n_, 0.25f);
        clamp01<<<blocks, 256, 0, stream_>>>(data_, n_);
        err = cudaStreamEndCapture(stream_, &graph_);
        if (err != cudaSuccess) return err;
        return instantiate(&exec_, graph_);
    }

    cudaError_t run(int frames) {
        for (int f = 0; f < frames; ++f) {
            const cudaError_t err = cudaGraphLaunch(exec_, stream_);
            if (err != cudaSuccess) return err;
        }
        return cudaStreamSynchronize(stream_);
    }

    ~FramePipeline() {
        cudaGraphExecDestroy(exec_);
        cudaGraphDestroy(graph_);
    }

  private:
    float *data_;
    int n_;
    cudaStream_t stream_{};
    cudaGraph_t graph_{};
    cudaGraphExec_t exec_{};
};

cudaError_t run_pipeline(float *data, int n, int frames) {
    FramePipeline pipeline(data, n);
    const cudaError_t err = pipeline.capture();
    return err != cudaSuccess ? err : pipeline.run(frames);
}
